import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionsDir } from "../support/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { OpenedSessions } from "./agent-sessions.js";

let home: string;
let test: TestState;
beforeEach(async () => {
  home = await mkdtemp(`${tmpdir()}/chorus-opened-`);
  test = await openTestState(undefined, home);
});
afterEach(async () => {
  await test.close();
  await rm(home, { recursive: true, force: true });
});

describe("OpenedSessions", () => {
  it("opens an agent's sessions once, under its own directory, and flush writes every opened store", async () => {
    const sessions = new OpenedSessions(home, test.state);
    const [first, again, other] = await Promise.all([sessions.of("main"), sessions.of("main"), sessions.of("work")]);
    expect(again).toBe(first);
    expect(other.store).not.toBe(first.store);
    first.store.ensure("agent:main:webchat:direct:ada", {
      agentId: "main",
      channel: "webchat",
      accountId: "default",
      conversationId: "dm:ada",
      chatType: "direct",
    });
    await sessions.flush();
    const file = JSON.parse(await readFile(`${sessionsDir(home, "main")}/sessions.json`, "utf8"));
    expect(Object.keys(file.sessions)).toEqual(["agent:main:webchat:direct:ada"]);
  });
});
