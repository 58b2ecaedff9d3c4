import { describe, expect, it } from "vitest";
import { WebchatHub } from "./hub.js";
import type { HubEvent } from "./types.js";

function hubWithPeople() {
  const hub = new WebchatHub({ botName: "Chorus" });
  const ada = hub.identify("Ada");
  const bob = hub.identify("Bob");
  hub.join("lobby", ada.id);
  hub.join("lobby", bob.id);
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, ada, bob, events };
}

describe("WebchatHub identities and rooms", () => {
  it("gives each person an id and a direct room, and resumes an identity by id", () => {
    const hub = new WebchatHub();
    const ada = hub.identify("  Ada   Lovelace ");
    expect(ada).toEqual({ id: expect.stringMatching(/^u_/), name: "Ada Lovelace" });
    expect(hub.roomsFor(ada.id).map((r) => [r.id, r.kind])).toEqual([
      [`dm:${ada.id}`, "direct"],
      ["lobby", "group"],
    ]);
    const again = hub.identify("Ada L.", ada.id);
    expect(again).toEqual({ id: ada.id, name: "Ada L." });
    expect(hub.room(`dm:${ada.id}`)?.members.map((m) => m.name)).toEqual(["Chorus", "Ada L."]);
  });

  it("refuses bad names, foreign ids and the bot's name", () => {
    const hub = new WebchatHub({ botName: "Chorus" });
    expect(() => hub.identify("  ")).toThrow("name is empty");
    expect(() => hub.identify("x".repeat(41))).toThrow(/longer than 40/);
    expect(() => hub.identify("chorus")).toThrow(/the bot's name/);
    expect(() => hub.identify("Ada", "admin")).toThrow(/not a webchat user id/);
  });

  it("creates group rooms on join, lists them, and keeps direct rooms to their owner", () => {
    const { hub, ada, bob, events } = hubWithPeople();
    const room = hub.join("#Team Chat", ada.id);
    expect(room).toMatchObject({ id: "team-chat", kind: "group", title: "team-chat" });
    expect(events).toContainEqual({ type: "room", room: expect.objectContaining({ id: "team-chat" }) });
    expect(hub.roomsFor(ada.id).map((r) => r.id)).toEqual([`dm:${ada.id}`, "lobby", "team-chat"]);
    expect(() => hub.join(`dm:${ada.id}`, bob.id)).toThrow(expect.objectContaining({ code: "E_AUTH" }));
    expect(() => hub.post("team-chat", bob.id, "let me in")).toThrow(/has not joined room team-chat/);
  });
});

describe("WebchatHub messages", () => {
  it("posts with mentions of participants and the bot, and replies in the same room", () => {
    const { hub, ada, bob, events } = hubWithPeople();
    const question = hub.post("lobby", ada.id, "@chorus what does @BOB think? cc @nobody");
    expect(question.mentions.map((m) => m.id)).toEqual(["bot", bob.id]);
    expect(events.at(-1)).toEqual({ type: "message", message: question });
    const answer = hub.post("lobby", "bot", "He agrees", { replyTo: question.id });
    expect(answer.replyTo).toEqual({ id: question.id, sender: ada, text: question.text });
    expect(answer.sender).toEqual({ id: "bot", name: "Chorus", bot: true });
    hub.join("other", ada.id);
    expect(() => hub.post("other", ada.id, "x", { replyTo: question.id })).toThrow(
      expect.objectContaining({ code: "E_MESSAGE_NOT_FOUND" }),
    );
  });

  it("keeps only the last historyLimit messages of a room", () => {
    const hub = new WebchatHub({ historyLimit: 3 });
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    const sent = [1, 2, 3, 4, 5].map((n) => hub.post("lobby", ada.id, `message ${n}`));
    expect(hub.messagesIn("lobby").map((m) => m.text)).toEqual(["message 3", "message 4", "message 5"]);
    expect(hub.messagesIn("lobby", 2).map((m) => m.text)).toEqual(["message 4", "message 5"]);
    expect(hub.message(sent[0]?.id ?? "")).toBeUndefined();
    expect(() => hub.reactionsOf(sent[0]?.id ?? "")).toThrow(expect.objectContaining({ code: "E_MESSAGE_NOT_FOUND" }));
  });

  it("refuses empty and oversized text", () => {
    const { hub, ada } = hubWithPeople();
    expect(() => hub.post("lobby", ada.id, "   ")).toThrow("message text is empty");
    expect(() => hub.post("lobby", ada.id, "x".repeat(8001))).toThrow(/8001 characters/);
    expect(() => hub.post("nowhere", "bot", "hi")).toThrow(/there is no webchat room "nowhere"/);
  });
});

describe("WebchatHub reactions", () => {
  it("lets each person hold several emoji, normalises spellings, and reports changes", () => {
    const { hub, ada, bob, events } = hubWithPeople();
    const message = hub.post("lobby", ada.id, "hello");
    expect(hub.react(message.id, "bot", "👍", true)).toBe(true);
    expect(hub.react(message.id, "bot", ":thumbsup:", true)).toBe(false);
    expect(hub.react(message.id, "bot", "❤️", true)).toBe(true);
    expect(hub.react(message.id, bob.id, "thumbsup", true)).toBe(true);
    expect(hub.react(message.id, bob.id, "partyparrot", true)).toBe(true);
    expect(hub.botReactions(message.id)).toEqual(["👍", "❤"]);
    expect(hub.reactionsOf(message.id)).toEqual([
      { emoji: "👍", users: [hub.bot, bob] },
      { emoji: "❤", users: [hub.bot] },
      { emoji: "partyparrot", users: [bob] },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "reactions",
      room: "lobby",
      messageId: message.id,
      changes: [{ userId: bob.id, emoji: "partyparrot", action: "added" }],
    });
  });

  it("removes one emoji or clears all of one person's, never anyone else's", () => {
    const { hub, ada, bob } = hubWithPeople();
    const message = hub.post("lobby", ada.id, "hello");
    for (const emoji of ["👍", "🎉", "👀"]) hub.react(message.id, "bot", emoji, true);
    hub.react(message.id, bob.id, "👍", true);
    expect(hub.react(message.id, "bot", "🎉", false)).toBe(true);
    expect(hub.react(message.id, "bot", "🎉", false)).toBe(false);
    expect(hub.clearReactions(message.id, "bot")).toEqual(["👍", "👀"]);
    expect(hub.botReactions(message.id)).toEqual([]);
    expect(hub.reactionsBy(message.id, bob.id)).toEqual(["👍"]);
    expect(hub.clearReactions(message.id, "bot")).toEqual([]);
  });

  it("needs membership and an emoji", () => {
    const { hub, ada } = hubWithPeople();
    const message = hub.post("lobby", ada.id, "hello");
    const carol = hub.identify("Carol");
    expect(() => hub.react(message.id, carol.id, "👍", true)).toThrow(/has not joined room lobby/);
    expect(() => hub.react(message.id, ada.id, " ", true)).toThrow(
      expect.objectContaining({ code: "E_EMOJI_REQUIRED" }),
    );
    expect(() => hub.react("m_missing", ada.id, "👍", true)).toThrow(/m_missing does not exist/);
  });
});

describe("WebchatHub listeners", () => {
  it("passes typing on, survives a failing listener and stops after unsubscribe", () => {
    const { hub, ada } = hubWithPeople();
    const seen: HubEvent[] = [];
    hub.subscribe(() => {
      throw new Error("broken listener");
    });
    const stop = hub.subscribe((event) => seen.push(event));
    hub.setTyping("lobby", ada.id, true);
    expect(seen).toEqual([{ type: "typing", room: "lobby", userId: ada.id, on: true }]);
    stop();
    hub.setTyping("lobby", ada.id, false);
    expect(seen).toHaveLength(1);
  });

  it("takes the bot's name and the page title from its options", () => {
    const hub = new WebchatHub({ botName: "Robo", title: "Team chat" });
    const ada = hub.identify("Ada");
    hub.join("lobby", ada.id);
    expect(hub.title).toBe("Team chat");
    expect(hub.room("lobby")?.members[0]).toEqual({ id: "bot", name: "Robo", bot: true });
    expect(hub.post("lobby", ada.id, "hi @robo").mentions).toEqual([{ id: "bot", name: "Robo", bot: true }]);
  });
});
