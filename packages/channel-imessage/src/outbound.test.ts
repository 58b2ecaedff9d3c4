import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
const ANN = "+15550001111";
let fake: FakeBlueBubbles;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeBlueBubbles();
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
  fake.addChat({ guid: `iMessage;-;${ANN}`, participants: [ANN] });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const sends = () =>
  fake.server.requestsTo("POST", "/api/v1/message/text").map((r) => r.body as Record<string, unknown>);

describe("iMessage send, reply, typing", () => {
  it("sends with a tempGuid via the Private API when the server has it; the ref is the server's GUID", async () => {
    running = await startChannel(imessageChannel, { config: fake.config() });
    const ref = await running.instance.send({ id: GROUP }, { text: "hello team" });
    const [stored] = fake.messagesIn(GROUP);
    expect(sends()).toEqual([
      { chatGuid: GROUP, tempGuid: expect.stringMatching(/^temp-/u), message: "hello team", method: "private-api" },
    ]);
    expect(ref).toEqual({
      channel: "imessage",
      accountId: "default",
      conversationId: GROUP,
      messageId: stored?.guid,
      fromBot: true,
    });
  });

  it("splits long text at maxTextLength; only the first part is the inline reply", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ maxTextLength: 100 }) });
    const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: "question" });
    const replyTo = await running.instance.resolveMessageRef({ id: GROUP }, guid);
    const text = `${"a".repeat(80)} ${"b".repeat(80)}`;
    await running.instance.send({ id: GROUP }, { text, replyTo });
    expect(sends().map((b) => [b.message, b.selectedMessageGuid])).toEqual([
      ["a".repeat(80), guid],
      ["b".repeat(80), undefined],
    ]);
    expect(
      fake
        .messagesIn(GROUP)
        .filter((m) => m.isFromMe)
        .map((m) => m.threadOriginatorGuid),
    ).toEqual([guid, undefined]);
  });

  it("without the Private API plain text goes by AppleScript, a bare handle addresses the direct chat", async () => {
    fake.state.privateApi = false;
    running = await startChannel(imessageChannel, { config: fake.config() });
    expect(running.instance.status()).toMatchObject({
      state: "degraded",
      detail: expect.stringContaining("Private API is disabled"),
    });
    await running.instance.send({ id: ANN }, { text: "hi" });
    expect(sends()).toEqual([expect.objectContaining({ chatGuid: `iMessage;-;${ANN}`, method: "apple-script" })]);
    await running.instance.setTyping({ id: ANN }, true);
    expect(fake.server.requestsTo("*", "/api/v1/chat/:guid/typing")).toEqual([]);
  });

  it("typing starts and stops on the chat", async () => {
    running = await startChannel(imessageChannel, { config: fake.config() });
    await running.instance.setTyping({ id: GROUP }, true);
    expect(fake.state.typing.has(GROUP)).toBe(true);
    await running.instance.setTyping({ id: GROUP }, false);
    expect(fake.state.typing.has(GROUP)).toBe(false);
  });

  it("status and identity: server facts, the account, the bot's E.164 from config", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ address: "+1 555 999 0000" }) });
    expect(running.instance.status()).toEqual({
      state: "running",
      detail: expect.stringMatching(
        /server http:\/\/127\.0\.0\.1:\d+ v1\.9\.9; account bot@icloud\.example; Private API enabled; webhook .* added/u,
      ),
    });
    expect(running.instance.identity?.()).toEqual({ id: "+15559990000", e164: "+15559990000", isBot: true });
  });

  it("an existing webhook registration is kept, not duplicated", async () => {
    running = await startChannel(imessageChannel, { config: fake.config({ webhookSecret: "0123456789abcdef" }) });
    await running.stop();
    running = await startChannel(imessageChannel, {
      config: fake.config({ webhookSecret: "0123456789abcdef" }),
      start: false,
    });
    fake.state.webhooks[0] = {
      ...fake.state.webhooks[0],
      url: `${running.hooksUrl}/hooks/imessage/default?secret=0123456789abcdef`,
    } as never;
    await running.instance.start();
    expect(fake.state.webhooks).toHaveLength(1);
    expect(running.instance.status().detail).toContain("registered");
  });
});
