import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GroupsHarness, groupKey, startHarness, systemText } from "../support/groups-b-harness.js";

const TRIGGER_ONLY =
  "Activation: trigger-only (you are woken only when someone mentions you or replies to you; the messages since your last reply are included as context).";
const ALWAYS_ON = "Activation: always-on (you receive every message in this group, mentioned or not).";
const ADDRESS = "Address the specific sender noted in the message context.";
const INTRO = "You are replying inside";

describe("the group system prompt through the real gateway (DESIGN §4)", () => {
  let h: GroupsHarness;
  beforeAll(async () => {
    // Ann is the owner: she may switch the activation.
    h = await startHarness({ memory: { allowFrom: ["ann"] } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Sends a message that triggers a turn and returns the system prompt the model got for it. */
  async function turn(group: string, text: string, reply: string, mention = true): Promise<string> {
    const { platform, model } = h.world;
    const mark = model.requests.length;
    model.script({ text: reply });
    platform.userSends({ conversationId: group, senderId: "ann", text, ...(mention ? { mentions: ["bot"] } : {}) });
    await h.botSays(group, reply);
    const requests = h.requestsSince(mark);
    expect(requests).toHaveLength(1);
    return systemText(requests[0]);
  }

  it("introduces the group on the first turn of its session only", async () => {
    const group = h.group("prompt-first");
    const first = await turn(group, "@Chorus hello", "Hello Ann.");
    expect(first).toContain(
      `You are replying inside the Memory group "Family". Group members: Ann (+4915100000001), Bob (+4915100000002). ${TRIGGER_ONLY} ${ADDRESS}`,
    );
    await h.committed(groupKey(group), 1);

    const second = await turn(group, "@Chorus and now?", "Still here.");
    expect(second).not.toContain(INTRO);
    expect(second).not.toContain("Group members:");
    expect(second).not.toContain("Activation:");
    // The rest of the system prompt is unchanged.
    expect(second).toContain("You are talking on Memory, in a group chat.");
  });

  it("introduces the group again after /activation, with the new activation", async () => {
    const group = h.group("prompt-activation");
    expect(await turn(group, "@Chorus hi", "Hi.")).toContain(TRIGGER_ONLY);

    h.world.platform.userSends({ conversationId: group, senderId: "ann", text: "/activation always" });
    await h.botSays(group, /^Activation is now always/);
    const always = await turn(group, "anyone home?", "I am.", false);
    expect(always).toContain(
      `You are replying inside the Memory group "Family". Group members: Ann (+4915100000001), Bob (+4915100000002). ${ALWAYS_ON}`,
    );
    expect(always).toContain("answer exactly NO_REPLY");
    expect(always).toContain(ADDRESS);
    expect(always).not.toContain(TRIGGER_ONLY);
    await h.committed(groupKey(group), 2);

    const next = await turn(group, "still there?", "Yes.", false);
    expect(next).not.toContain(INTRO);

    h.world.platform.userSends({ conversationId: group, senderId: "ann", text: "/activation mention" });
    await h.botSays(group, /^Activation is now mention/);
    const mention = await turn(group, "@Chorus ok", "Ok.");
    expect(mention).toContain(
      `You are replying inside the Memory group "Family". Group members: Ann (+4915100000001), Bob (+4915100000002). ${TRIGGER_ONLY}`,
    );
    expect(mention).not.toContain(ALWAYS_ON);
  });

  it("uses generic wording when the group has no title (and no members known)", async () => {
    const untitled = h.group("prompt-untitled", null);
    const prompt = await turn(untitled, "@Chorus hey", "Hey.");
    expect(prompt).toContain(
      `You are replying inside a Memory group chat. Group members: Ann (+4915100000001), Bob (+4915100000002). ${TRIGGER_ONLY} ${ADDRESS}`,
    );
    expect(prompt).not.toContain('group "');

    h.world.platform.addConversation({ id: "prompt-bare", kind: "group", members: [] });
    const bare = await turn("prompt-bare", "@Chorus hey", "Hey you.");
    expect(bare).toContain(`You are replying inside a Memory group chat. ${TRIGGER_ONLY} ${ADDRESS}`);
    expect(bare).not.toContain("Group members:");
  });

  it("a direct chat gets no group introduction", async () => {
    const dm = h.dm("prompt-dm");
    const prompt = await turn(dm, "hello", "Hi Ann.", false);
    expect(prompt).toContain("You are talking on Memory, in a direct (one-to-one) chat.");
    expect(prompt).not.toContain(INTRO);
  });
});
