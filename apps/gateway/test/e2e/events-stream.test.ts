import { join } from "node:path";
import { createMemoryPlatform, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { openEvents, type SseStream } from "../support/sse-client.js";

describe("GET /v1/events: the inbound event stream (a real SSE parser, a real gateway process)", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;
  const streams: SseStream[] = [];

  const config = () => ({
    plugins: { load: [join(FIXTURES, "memory-channel")] },
    channels: {
      memory: {
        baseUrl: platform.url,
        token: platform.token,
        pollWaitMs: 2000,
        groupPolicy: "open",
        dmPolicy: "allowlist",
        allowFrom: ["ann"],
        reactionNotifications: "all",
      },
      webchat: { enabled: false },
    },
  });

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "team", kind: "group", title: "Team", members: [{ id: "ann", name: "Ann" }] });
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    platform.addConversation({ id: "dm-bob", kind: "direct", members: [{ id: "bob", name: "Bob" }] });
    gateway = await startGatewayProcess({ config: config() });
  }, 30_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await gateway?.stop();
    await platform?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const open = async (lastEventId?: string) => {
    const stream = await openEvents(gateway.url, gateway.token, lastEventId);
    streams.push(stream);
    return stream;
  };
  const messages = (stream: SseStream) => stream.events.filter((e) => e.data.type === "message");
  const textsOf = (stream: SseStream) => messages(stream).map((e) => e.data.text);

  it("a wrong or missing token is 401", async () => {
    expect((await openEvents(gateway.url, "wrong-token")).status).toBe(401);
    const bare = await fetch(`${gateway.url}/v1/events`);
    expect(bare.status).toBe(401);
    expect(JSON.stringify(await bare.json())).not.toContain(gateway.token);
  });

  it("a Last-Event-ID that is no event id is 400", async () => {
    expect((await openEvents(gateway.url, gateway.token, "abc")).status).toBe(400);
  });

  it("a Last-Event-ID this inbox never had (a new database) starts from now, and the ready event says so", async () => {
    const stream = await open("999999999");
    await waitFor(() => stream.events.find((e) => e.data.type === "ready"), { message: "the ready event" });
    expect(stream.events[0]?.data).toMatchObject({ type: "ready", unknownLastEventId: "999999999" });
    expect(stream.events[0]?.data.resumedAfter).toBeUndefined();
    platform.userSends({ conversationId: "team", senderId: "ann", text: "fresh start" });
    await waitFor(() => textsOf(stream).includes("fresh start"), { timeoutMs: 10_000, message: "a new event" });
    stream.close();
  });

  it("streams messages after the access rules and reactions, as JSON with ids", async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    await waitFor(() => stream.events.find((e) => e.data.type === "ready"), { message: "the ready event" });
    const ready = stream.events[0]?.data;
    expect(ready).toMatchObject({ type: "ready", retentionMs: 7 * 86_400_000 });
    expect(ready?.channels).toEqual([expect.objectContaining({ channel: "memory", account: "default", up: true })]);

    const inGroup = platform.userSends({ conversationId: "team", senderId: "ann", text: "morning, team" });
    platform.userSends({ conversationId: "dm-bob", senderId: "bob", text: "let me in" });
    platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "hi bot" });
    await waitFor(() => textsOf(stream).includes("hi bot"), { timeoutMs: 10_000, message: "Ann's DM on the stream" });
    // Bob is not on dmPolicy "allowlist": his message is not shown.
    expect(textsOf(stream)).toEqual(["morning, team", "hi bot"]);
    const group = messages(stream)[0];
    expect(group?.id).toBe(group?.data.id);
    expect(group?.data).toMatchObject({
      type: "message",
      channel: "memory",
      account: "default",
      messageId: inGroup.id,
      conversation: { id: "team", kind: "group" },
      sender: { id: "ann", name: "Ann" },
      text: "morning, team",
    });
    const ids = messages(stream).map((e) => Number(e.id));
    expect(ids[1]).toBeGreaterThan(ids[0] as number);

    platform.userReacts(inGroup.id, "ann", "🎉");
    const reaction = await waitFor(() => stream.events.find((e) => e.data.type === "reaction"), {
      timeoutMs: 10_000,
      message: "the reaction on the stream",
    });
    expect(reaction.data).toMatchObject({ messageId: inGroup.id, emoji: "🎉", action: "added", actor: { id: "ann" } });
    expect(reaction.id).toBeDefined();
    stream.close();
  });

  it("a reconnect with Last-Event-ID after a gateway restart misses nothing", async () => {
    const first = await open();
    await waitFor(() => first.events.some((e) => e.data.type === "ready"), { message: "the ready event" });
    platform.userSends({ conversationId: "team", senderId: "ann", text: "before the restart" });
    await waitFor(() => textsOf(first).includes("before the restart"), { timeoutMs: 10_000, message: "the event" });
    const resumeFrom = first.lastEventId() as string;
    expect(resumeFrom).toBeDefined();

    expect(await gateway.stop()).toBe(0);
    await first.ended;
    // Written while no gateway runs: the platform keeps them until the next gateway takes them.
    for (const text of ["while down 1", "while down 2", "while down 3"])
      platform.userSends({ conversationId: "team", senderId: "ann", text });
    gateway = await startGatewayProcess({ home: gateway.home, config: config() });
    // Committed after the restart while no client listens.
    platform.userSends({ conversationId: "team", senderId: "ann", text: "after the restart" });
    await waitFor(
      async () => {
        const { json } = await gateway.call("GET", "/v1/channels");
        return json.channels?.[0]?.status?.state === "running";
      },
      { message: "the memory channel running" },
    );

    const second = await open(resumeFrom);
    await waitFor(() => textsOf(second).includes("after the restart"), {
      timeoutMs: 15_000,
      message: "every message since Last-Event-ID",
    });
    expect(second.events[0]?.data).toMatchObject({ type: "ready", resumedAfter: resumeFrom });
    expect(textsOf(second)).toEqual(["while down 1", "while down 2", "while down 3", "after the restart"]);
    for (const event of messages(second)) expect(Number(event.id)).toBeGreaterThan(Number(resumeFrom));
    second.close();
  }, 60_000);
});
