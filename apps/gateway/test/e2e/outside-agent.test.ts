import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMemoryPlatform, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const EXAMPLE = fileURLToPath(new URL("../../../../examples/outside-agent/main.js", import.meta.url));

describe("an outside agent (provider external): the example reads the stream and answers through the API", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;
  let agent: ChildProcess | undefined;
  let agentOutput = "";

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    platform.addConversation({ id: "team", kind: "group", title: "Team", members: [{ id: "ann", name: "Ann" }] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [join(FIXTURES, "memory-channel")] },
        channels: {
          memory: {
            baseUrl: platform.url,
            token: platform.token,
            pollWaitMs: 2000,
            dmPolicy: "open",
            groupPolicy: "open",
          },
          webchat: { enabled: false },
        },
        messages: { ackReactionScope: "all" },
        agents: { list: [{ id: "main", name: "Chorus", model: { provider: "external", timeoutMs: 60_000 } }] },
      },
    });
  }, 30_000);

  afterAll(async () => {
    agent?.kill("SIGTERM");
    await gateway?.stop();
    await platform?.close();
    if (gateway) await removeHome(gateway.home);
  });

  /** `chorus sessions show <key>`: the session's entry and the end of its transcript. */
  const transcriptOf = async (key: string): Promise<string> => {
    const run = spawn(process.execPath, [CLI, "sessions", "show", key], {
      env: { ...process.env, CHORUS_HOME: gateway.home, CHORUS_CONFIG: "" },
    });
    let out = "";
    run.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise((resolve) => run.once("exit", resolve));
    return out;
  };

  const botSaid = (conversation: string, text: string) =>
    platform.messagesIn(conversation).some((m) => m.senderId === "bot" && m.text === text);

  it("a turn waits for the outside agent with the ack shown, and ends at its first send", async () => {
    const hello = platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "hello" });
    // No model is called: the turn waits, the ack on Ann's message says it is being handled.
    await waitFor(() => platform.botReactions(hello.id).includes("👀"), {
      timeoutMs: 10_000,
      message: "the ack reaction while the turn waits",
    });
    expect(platform.messagesIn("dm-ann").filter((m) => m.senderId === "bot")).toEqual([]);
    // Typing shows while it waits (a direct chat types at once, as for the built-in agent).
    await waitFor(() => platform.state.typing.get("dm-ann") === true, { message: "typing while the turn waits" });

    // The example starts from the oldest event the gateway keeps, so it hears the waiting message.
    agent = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, CHORUS_URL: gateway.url, CHORUS_TOKEN: gateway.token, CHORUS_LAST_EVENT_ID: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    agent.stdout?.on("data", (chunk: Buffer) => {
      agentOutput += chunk.toString();
    });
    agent.stderr?.on("data", (chunk: Buffer) => {
      agentOutput += chunk.toString();
    });
    await waitFor(() => botSaid("dm-ann", "echo: hello"), { timeoutMs: 15_000, message: "the outside agent's answer" });
    // The turn ended with that send: the ack goes, as after a built-in agent's reply.
    await waitFor(() => platform.botReactions(hello.id).length === 0, {
      timeoutMs: 10_000,
      message: "the ack removed when the turn ended",
    });
    await waitFor(() => platform.state.typing.get("dm-ann") === false, { message: "typing off after the turn" });
    // One answer: the gateway sent nothing of its own.
    expect(
      platform
        .messagesIn("dm-ann")
        .filter((m) => m.senderId === "bot")
        .map((m) => m.text),
    ).toEqual(["echo: hello"]);
    expect(agentOutput).not.toContain(gateway.token);
  }, 40_000);

  it("answers the next messages as they come; the session's transcript has both sides", async () => {
    platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "again" });
    await waitFor(() => botSaid("dm-ann", "echo: again"), { timeoutMs: 15_000, message: "the second answer" });
    // In a group only a mention is answered by the example.
    platform.userSends({ conversationId: "team", senderId: "ann", text: "just chatting" });
    platform.userSends({ conversationId: "team", senderId: "ann", text: "@Chorus ping", mentions: ["bot"] });
    await waitFor(() => botSaid("team", "echo: @Chorus ping"), { timeoutMs: 15_000, message: "the group answer" });
    expect(botSaid("team", "echo: just chatting")).toBe(false);

    // The group's session records the trigger and the outside agent's answer, as for a built-in agent.
    await waitFor(async () => (await transcriptOf("agent:main:memory:group:team")).includes("echo: @Chorus ping"), {
      timeoutMs: 10_000,
      message: "the answer in the group's transcript",
    });
    expect(await transcriptOf("agent:main:memory:group:team")).toContain("@Chorus ping");
  }, 40_000);
});

describe("an outside agent that does not answer: the turn ends at timeoutMs", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [join(FIXTURES, "memory-channel")] },
        channels: {
          memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, dmPolicy: "open" },
          webchat: { enabled: false },
        },
        messages: { ackReactionScope: "all" },
        agents: { list: [{ id: "main", name: "Chorus", model: { provider: "external", timeoutMs: 1000 } }] },
      },
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await platform?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("shows the ack while it waits, then takes it away and sends nothing; the next message gets its own turn", async () => {
    const first = platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "anyone?" });
    await waitFor(() => platform.botReactions(first.id).includes("👀"), { timeoutMs: 10_000, message: "the ack" });
    await waitFor(() => platform.botReactions(first.id).length === 0, {
      timeoutMs: 10_000,
      message: "the ack removed at the timeout",
    });
    const second = platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "still there?" });
    await waitFor(() => platform.botReactions(second.id).includes("👀"), {
      timeoutMs: 10_000,
      message: "the next turn's ack",
    });
    // An answer now belongs to the waiting turn of the second message.
    const answer = await gateway.call("POST", "/v1/tools/message", {
      channel: "memory",
      target: "dm-ann",
      action: "send",
      text: "here",
    });
    expect(answer.status).toBe(200);
    await waitFor(() => platform.botReactions(second.id).length === 0, { message: "the ack removed at the answer" });
    expect(
      platform
        .messagesIn("dm-ann")
        .filter((m) => m.senderId === "bot")
        .map((m) => m.text),
    ).toEqual(["here"]);
  }, 30_000);
});
