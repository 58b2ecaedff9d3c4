import { Redactor } from "@chorus/channel-kit";
import { silentLogger } from "@chorus/core";
import { faults, startChannel } from "@chorus/testkit";
import { WebClient } from "@slack/web-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SlackApi } from "./api.js";
import { slackConfigSchema } from "./config.js";
import { Directory } from "./directory.js";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";
import { webClientOptions } from "./web.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;

beforeEach(async () => {
  fake = createFakeSlack();
  await fake.start();
  fake.addUser({ id: ANN, name: "ann", real_name: "Ann Lee" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  fake.addConversation({ id: "G0GROUPDM1", type: "mpim", name: "mpdm-ann--chorus-1", members: [fake.bot.id, ANN] });
});

afterEach(() => fake.close());

const directory = (ttlMs: number) => {
  const config = slackConfigSchema.parse(fake.config({ retries: 0 }));
  const hooks = { signal: new AbortController().signal, logger: silentLogger };
  const web = new WebClient(config.botToken, webClientOptions(config, hooks));
  return new Directory(
    new SlackApi(web, config, { signal: hooks.signal, redactor: new Redactor() }),
    ttlMs,
    silentLogger,
  );
};
const asked = (method: string) => fake.server.requestsTo("POST", `/api/${method}`).length;

describe("names and titles (users.info, conversations.info / .members)", () => {
  it("shares one request per id among concurrent lookups and serves it from memory within the TTL", async () => {
    const names = directory(60_000);
    const people = await Promise.all([names.user(ANN), names.user(ANN), names.user(ANN)]);
    expect(people).toEqual([
      { id: ANN, name: "Ann Lee" },
      { id: ANN, name: "Ann Lee" },
      { id: ANN, name: "Ann Lee" },
    ]);
    await names.user(ANN);
    expect(asked("users.info")).toBe(1);
    const [first, second] = await Promise.all([names.conversation(TEAM), names.conversation(TEAM)]);
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      title: "team",
      isDirect: false,
      members: [{ id: fake.bot.id }, { id: ANN, name: "Ann Lee" }],
    });
    expect([asked("conversations.info"), asked("conversations.members")]).toEqual([1, 1]);
  });

  it("asks again once the TTL has passed, and titles a group DM by its members", async () => {
    const names = directory(0);
    await names.user(ANN);
    await names.user(ANN);
    expect(asked("users.info")).toBe(2);
    expect((await names.conversation("G0GROUPDM1")).title).toBe("Chorus, Ann Lee");
  });

  it("gives the id when a lookup fails, so a message is never dropped for a name", async () => {
    const names = directory(60_000);
    fake.server.inject(faults.serverError({ path: "/api/users.info" }));
    expect(await names.user(ANN)).toEqual({ id: ANN });
    expect(await names.conversation("C0MISSING1")).toEqual({ id: "C0MISSING1", isDirect: false });
    expect(await names.user(ANN)).toEqual({ id: ANN, name: "Ann Lee" });
  });
});

describe("accounts", () => {
  it("serves each workspace's Events API under its own account: /hooks/slack/<account>/events", async () => {
    const http = createFakeSlack({ mode: "http" });
    await http.start();
    const running = await startChannel(slackChannel, { config: http.config(), accountId: "work" });
    expect(running.routes).toEqual(["POST /work/events"]);
    expect(await http.http.verify(running.ctx.http.url("/work/events"))).toBe(true);
    await running.stop();
    await http.close();
  });
});
