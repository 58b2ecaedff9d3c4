import { inspect } from "node:util";
import { streamOf } from "@chorus/channel-kit";
import { faults, type RunningChannel, sampleMedium, startChannel, waitFor } from "@chorus/testkit";
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

  it("media: a failed upload (refused, cut off) and a failed download leave no token, though both URLs carry it", async () => {
    fake = createFakeTelegram({ token: TOKEN, limits: { uploadBytes: 256 } });
    await fake.start();
    fake.addChat({ id: -1001, type: "supergroup", title: "Team" });
    channel = await startChannel(telegramChannel, { config: fake.config() });
    const running = channel;
    const { bytes, mime, filename } = sampleMedium("file");
    const media = [{ kind: "file" as const, mime, filename, size: bytes.byteLength, open: () => streamOf(bytes) }];
    const refused = await running.instance.send({ id: "-1001" }, { text: "", media }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "E_TOO_LARGE" });
    fake.server.inject(faults.reset({ path: /\/sendDocument$/ }, { times: 1 }));
    const small = [{ ...media[0], size: 10, open: () => streamOf(bytes.subarray(0, 10)) }] as typeof media;
    const cut = await running.instance.send({ id: "-1001" }, { text: "", media: small }).catch((e: unknown) => e);
    expect(cut).toMatchObject({ code: "E_PLATFORM" });
    const sent = fake.userSendsMedium({
      chatId: -1001,
      from: { id: 501, is_bot: false, first_name: "Ann" },
      sample: { kind: "file", bytes, mime },
    });
    fake.server.inject(faults.reset({ path: /^\/file\/bot/ }, { times: 5 }));
    const attachment = { kind: "file" as const, source: { fileId: sent.document?.file_id as string } };
    const download = await running.instance.download?.(attachment, { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(download).toMatchObject({ code: "E_PLATFORM" });
    for (const error of [refused, cut, download]) expectNoToken(reported(running, error));
  });
});
