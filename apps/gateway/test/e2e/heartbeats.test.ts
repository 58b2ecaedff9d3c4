import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_HEARTBEAT_PROMPT } from "../../src/testing/index.js";
import { readSessionsOnDisk } from "../support/faults-state.js";
import { type GroupsHarness, groupKey, startHarness, systemText, userText } from "../support/groups-b-harness.js";

describe("heartbeats (agents.defaults.heartbeat.every: 1s)", () => {
  let h: GroupsHarness;
  beforeAll(async () => {
    h = await startHarness({ defaults: { heartbeat: { every: "1s" } } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("run the agent in DM sessions, reply unless NO_REPLY, and never run for group sessions", async () => {
    const { platform, model } = h.world;
    const group = h.group("hb-group");
    const dm = h.dm("hb-dm");
    // The group session comes first: while no direct session exists, no heartbeat talks to the model.
    model.script({ text: "Hello group." });
    platform.userSends({ conversationId: group, senderId: "ann", text: "@Chorus hi all", mentions: ["bot"] });
    await h.botSays(group, "Hello group.");
    await h.committed(groupKey(group), 1);

    // The DM turn, then heartbeats in that session's order: a reminder, a silent one, another reminder.
    model.script(
      { text: "Hello Ann." },
      { text: "Remember the dentist at 3." },
      { text: "NO_REPLY" },
      { text: "Water the plants." },
    );
    platform.userSends({ conversationId: dm, senderId: "ann", text: "hi" });
    await h.botSays(dm, "Water the plants.", 15_000);

    const said = h.botMessages(dm).map((m) => m.text);
    expect(said.slice(0, said.indexOf("Water the plants.") + 1)).toEqual([
      "Hello Ann.",
      "Remember the dentist at 3.",
      "Water the plants.",
    ]);
    const requests = model.requests;
    const heartbeats = requests.filter((r) => userText(r) === DEFAULT_HEARTBEAT_PROMPT);
    expect(heartbeats.length).toBeGreaterThanOrEqual(3);
    // Every model request is the group turn, the DM turn, or a heartbeat in the direct chat.
    expect(requests).toHaveLength(2 + heartbeats.length);
    expect(userText(requests[0])).toBe("Ann: @Chorus hi all\n[from: Ann (+4915100000001)]");
    expect(userText(requests[1])).toBe("hi");
    for (const heartbeat of heartbeats) {
      expect(systemText(heartbeat)).toContain("You are talking on Memory, in a direct (one-to-one) chat.");
      expect(systemText(heartbeat)).not.toContain("group");
    }
    // The heartbeat turns see the DM session's history.
    expect(heartbeats[0]?.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "hi",
      DEFAULT_HEARTBEAT_PROMPT,
    ]);
    // The group saw no heartbeat: no message and no turn beyond the mention.
    expect(h.botMessages(group).map((m) => m.text)).toEqual(["Hello group."]);
    await eventually(async () => {
      const sessions = await readSessionsOnDisk(h.gateway.home);
      expect(sessions["agent:main:memory:dm:ann"]?.turns).toBeGreaterThanOrEqual(4);
      expect(sessions[groupKey(group)]?.turns).toBe(1);
    });
  });
});
