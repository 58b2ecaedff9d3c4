import { inspect } from "node:util";
import { faults, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram, unreachableApiRoot } from "./testing/index.js";

/** A bot token in Telegram's shape that must never be reported, in any spelling. */
const TOKEN = "555000111:AAsecretTokenThatMustNotLeak_987654";
const SPELLINGS = [TOKEN, encodeURIComponent(TOKEN), TOKEN.split(":")[1] as string];

let fake: FakeTelegram | undefined;
let channel: RunningChannel | undefined;

afterEach(async () => {
  await channel?.stop();
  await fake?.close();
  channel = undefined;
  fake = undefined;
});

/** Everything about a value, causes and stacks included, as a log serializer could print it. */
const everything = (value: unknown) => inspect(value, { depth: 12, showHidden: true, breakLength: Infinity });

/** The places a token could leak to: the error, the status, every log line. */
function reported(running: RunningChannel, error: unknown): string {
  return [everything(error), everything(running.instance.status()), everything(running.logs.records)].join("\n");
}

const expectNoToken = (text: string) => {
  for (const spelling of SPELLINGS) expect(text).not.toContain(spelling);
};

describe("the bot token never leaves the plugin", () => {
  it("an unreachable apiRoot: the start error, the status and the log name the failure, not the token", async () => {
    const apiRoot = await unreachableApiRoot();
    channel = await startChannel(telegramChannel, { config: { botToken: TOKEN, apiRoot, retries: 1 }, start: false });
    const error = await channel.instance.start().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", message: expect.stringContaining("ECONNREFUSED") });
    expect(channel.instance.status()).toMatchObject({ state: "degraded", detail: expect.stringContaining("getMe") });
    // The cause (grammY's HttpError, node-fetch's FetchError) quoted the URL `…/bot<token>/getMe`.
    expect(everything(error)).toContain("/bot[redacted]/getMe");
    expectNoToken(reported(channel, error));
  });

  it("a refused token (401): E_AUTH with its hint, and no token anywhere", async () => {
    fake = createFakeTelegram();
    await fake.start();
    channel = await startChannel(telegramChannel, { config: fake.config({ botToken: TOKEN }), start: false });
    const error = await channel.instance.start().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_AUTH", hint: expect.stringContaining("botToken") });
    expect(channel.instance.status()).toMatchObject({ state: "degraded" });
    expectNoToken(reported(channel, error));
  });

  it("while running: a lost poll and a failed send leave no token in the log, the status or the error", async () => {
    fake = createFakeTelegram({ token: TOKEN });
    await fake.start();
    fake.addChat({ id: -1001, type: "supergroup", title: "Team" });
    channel = await startChannel(telegramChannel, { config: fake.config() });
    const running = channel;
    fake.server.inject(faults.reset({ path: /\/getUpdates$/ }, { times: 2 }));
    fake.server.inject(faults.malformed({ path: /\/sendMessage$/ }, { body: "<html>502</html>" }));
    const error = await running.instance.send({ id: "-1001" }, { text: "hello" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", message: expect.stringContaining("unreadable answer") });
    await waitFor(() => running.logs.at("warn").some((r) => r.message.includes("polling failed")));
    expectNoToken(reported(running, error));
  });
});
