import { describe, expect, it } from "vitest";
import { defineVocabulary } from "../emoji/vocabulary.js";
import { ChorusError } from "../errors.js";
import type { ChannelCapabilities } from "../plugin/plugin.js";
import type { ReactionCapabilities } from "../reactions/capabilities.js";
import { type ReactionLevel, reactionGuidance } from "../reactions/level.js";
import { buildMessageTool, type MessageToolDefinition } from "./schema.js";

const reactionFlags = (partial: Partial<ReactionCapabilities>): ReactionCapabilities => ({
  clearAll: false,
  singleSlot: false,
  tapbackOnly: false,
  addOnly: false,
  list: false,
  ...partial,
});

const channel = (reactions: Partial<ReactionCapabilities>): ChannelCapabilities => ({
  chatTypes: ["direct", "group"],
  reactions: reactionFlags(reactions),
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: 4096,
});

const tapbacks = defineVocabulary([
  { name: "love", matches: ["❤️", "heart"] },
  { name: "like", matches: ["👍", "+1", "thumbsup"] },
  { name: "dislike", matches: ["👎", "-1", "thumbsdown"] },
  { name: "laugh", matches: ["😂", "🤣", "haha"] },
  { name: "emphasize", matches: ["‼️", "!!"] },
  { name: "question", matches: ["❓", "?"] },
]);

const discord = channel({ clearAll: true, list: true });
const nextcloud = channel({ addOnly: true });
const telegram = channel({ clearAll: true, singleSlot: true, vocabulary: ["👍", "👎", "❤", "🔥"] });
const zalo = channel({});
const feishu = channel({ clearAll: "explicit", list: true, vocabulary: ["THUMBSUP", "HEART"] });
const imessage = channel({ tapbackOnly: true, singleSlot: true, clearAll: true, vocabulary: tapbacks.names });

interface JsonSchemaObject {
  $schema?: string;
  type: string;
  properties: Record<string, { type?: string; enum?: string[]; description?: string; maxLength?: number }>;
  required?: string[];
  additionalProperties?: boolean;
}

const schemaOf = (tool: MessageToolDefinition) => tool.jsonSchema as unknown as JsonSchemaObject;
const paramsOf = (tool: MessageToolDefinition) => Object.keys(schemaOf(tool).properties);

/** Runs `fn`, which must throw a ChorusError, and returns that error. */
function chorusErrorOf(fn: () => unknown): ChorusError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ChorusError);
    return error as ChorusError;
  }
  throw new Error("expected a ChorusError, nothing was thrown");
}

describe("buildMessageTool: actions and parameters", () => {
  it("offers send, react and reactions where the channel can list", () => {
    const tool = buildMessageTool({ capabilities: discord });
    expect(tool.name).toBe("message");
    expect(tool.actions).toEqual(["send", "react", "reactions"]);
    expect(schemaOf(tool).properties.action?.enum).toEqual(["send", "react", "reactions"]);
    expect(paramsOf(tool)).toEqual(
      expect.arrayContaining(["messageId", "emoji", "remove", "clearAll", "trackToolCalls", "text", "replyTo"]),
    );
  });

  it("has no reactions action where the channel cannot list", () => {
    const tool = buildMessageTool({ capabilities: telegram });
    expect(tool.actions).toEqual(["send", "react"]);
    expect(schemaOf(tool).properties.action?.enum).toEqual(["send", "react"]);
  });

  it.each<ReactionLevel>(["off", "ack"])("hides react and its parameters at reactionLevel %s", (reactionLevel) => {
    const tool = buildMessageTool({ capabilities: discord, reactionLevel });
    expect(tool.actions).toEqual(["send"]);
    expect(schemaOf(tool).properties.action?.enum).toEqual(["send"]);
    for (const param of ["messageId", "emoji", "remove", "clearAll", "trackToolCalls"]) {
      expect(paramsOf(tool)).not.toContain(param);
    }
    expect(tool.description).not.toMatch(/react/i);
  });

  it.each<ReactionLevel>(["minimal", "extensive"])("offers react at reactionLevel %s", (reactionLevel) => {
    expect(buildMessageTool({ capabilities: discord, reactionLevel }).actions).toContain("react");
  });

  it("defaults to reactionLevel minimal", () => {
    const tool = buildMessageTool({ capabilities: discord });
    expect(tool.actions).toContain("react");
    expect(tool.description).toContain("React sparingly");
  });

  it("has neither remove nor clearAll on an add-only channel", () => {
    const params = paramsOf(buildMessageTool({ capabilities: nextcloud }));
    expect(params).toContain("emoji");
    expect(params).not.toContain("remove");
    expect(params).not.toContain("clearAll");
  });

  it("has remove but no clearAll where clearAll is false", () => {
    const params = paramsOf(buildMessageTool({ capabilities: zalo }));
    expect(params).toContain("remove");
    expect(params).not.toContain("clearAll");
  });

  it('has clearAll where clearAll is true or "explicit"', () => {
    expect(paramsOf(buildMessageTool({ capabilities: discord }))).toContain("clearAll");
    expect(paramsOf(buildMessageTool({ capabilities: feishu }))).toContain("clearAll");
  });

  it("always has send's and routing parameters", () => {
    for (const capabilities of [discord, nextcloud, telegram]) {
      for (const reactionLevel of ["off", "minimal"] as const) {
        expect(paramsOf(buildMessageTool({ capabilities, reactionLevel }))).toEqual(
          expect.arrayContaining(["action", "text", "replyTo", "channel", "account", "target"]),
        );
      }
    }
  });
});

describe("buildMessageTool: descriptions state the rules", () => {
  it("names the channel", () => {
    expect(buildMessageTool({ capabilities: telegram, channel: "Telegram" }).description).toMatch(
      /^Send messages and react to them on Telegram\./,
    );
    expect(buildMessageTool({ capabilities: telegram, reactionLevel: "off", channel: "Telegram" }).description).toBe(
      "Send messages on Telegram.",
    );
  });

  it("says a new reaction replaces the old one on a single-slot channel", () => {
    expect(buildMessageTool({ capabilities: telegram }).description).toContain(
      "One reaction per message: a new one replaces yours.",
    );
    expect(buildMessageTool({ capabilities: discord }).description).not.toContain("replaces");
  });

  it("lists the tapback kinds", () => {
    const description = buildMessageTool({
      capabilities: imessage,
      vocabulary: tapbacks,
      channel: "iMessage",
    }).description;
    expect(description).toContain("emoji must be one of love, like, dislike, laugh, emphasize, question");
  });

  it("lists the kinds from the capability flags when no vocabulary object is given", () => {
    expect(buildMessageTool({ capabilities: imessage }).description).toContain(
      "emoji must be one of love, like, dislike, laugh, emphasize, question",
    );
  });

  it("lists an allowed set that is not tapbacks", () => {
    expect(buildMessageTool({ capabilities: telegram }).description).toContain(
      "Only these reactions are allowed: 👍 👎 ❤ 🔥.",
    );
  });

  it("says reactions cannot be removed on an add-only channel, and never offers removal there", () => {
    const description = buildMessageTool({ capabilities: nextcloud }).description;
    expect(description).toContain("cannot be removed");
    expect(description).not.toContain("remove: true");
    expect(description).not.toContain("clearAll");
  });

  it("tells how clearing works for clearAll true and explicit", () => {
    expect(buildMessageTool({ capabilities: discord }).description).toContain(
      'emoji "" or clearAll: true removes all your reactions.',
    );
    const feishuText = buildMessageTool({ capabilities: feishu }).description;
    expect(feishuText).toContain("clearAll: true removes all your reactions (an empty emoji does not).");
    expect(feishuText).not.toContain('emoji ""');
    expect(buildMessageTool({ capabilities: zalo }).description).not.toContain("clearAll");
  });

  it("describes the offered actions and only those", () => {
    expect(schemaOf(buildMessageTool({ capabilities: discord })).properties.action?.description).toContain(
      "reactions: list the reactions on a message",
    );
    expect(schemaOf(buildMessageTool({ capabilities: telegram })).properties.action?.description).not.toContain(
      "reactions:",
    );
  });

  it("adds the level's advice, in the words of reactionGuidance (the system prompt uses the same)", () => {
    expect(buildMessageTool({ capabilities: discord, reactionLevel: "extensive" }).description).toContain(
      "React freely",
    );
    for (const reactionLevel of ["minimal", "extensive"] as const) {
      expect(buildMessageTool({ capabilities: discord, reactionLevel }).description).toContain(
        reactionGuidance(reactionLevel) as string,
      );
    }
  });
});

describe("buildMessageTool: jsonSchema", () => {
  const tools = {
    discord: buildMessageTool({ capabilities: discord }),
    nextcloud: buildMessageTool({ capabilities: nextcloud }),
    imessage: buildMessageTool({ capabilities: imessage, vocabulary: tapbacks }),
    off: buildMessageTool({ capabilities: discord, reactionLevel: "off" }),
  };

  it.each(Object.entries(tools))("is a closed JSON Schema object (%s)", (_, tool) => {
    const schema = schemaOf(tool);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["action"]);
    for (const [name, property] of Object.entries(schema.properties)) {
      expect(["string", "boolean", "object", "array"], `type of ${name}`).toContain(property.type);
      expect(property.description, `description of ${name}`).toBeTruthy();
    }
  });

  it("survives JSON round trips unchanged (plain data, no functions)", () => {
    for (const tool of Object.values(tools)) {
      expect(JSON.parse(JSON.stringify(tool.jsonSchema))).toEqual(tool.jsonSchema);
    }
  });

  it("limits emoji length", () => {
    expect(schemaOf(tools.discord).properties.emoji?.maxLength).toBe(128);
  });
});

describe("buildMessageTool: parse", () => {
  const tool = buildMessageTool({ capabilities: discord, channel: "Discord" });

  it("returns a valid react call", () => {
    expect(tool.parse({ action: "react", messageId: "m1", emoji: "thumbsup" })).toEqual({
      action: "react",
      messageId: "m1",
      emoji: "thumbsup",
    });
    expect(tool.parse({ action: "react", emoji: "", clearAll: true })).toEqual({
      action: "react",
      emoji: "",
      clearAll: true,
    });
  });

  it("returns a valid send call and a reactions call where listing is possible", () => {
    expect(tool.parse({ action: "send", text: "hi", replyTo: "m1" })).toEqual({
      action: "send",
      text: "hi",
      replyTo: "m1",
    });
    expect(tool.parse({ action: "reactions", messageId: "m1" })).toEqual({ action: "reactions", messageId: "m1" });
  });

  it("rejects a wrong type as E_INVALID_INPUT naming the path", () => {
    const error = chorusErrorOf(() => tool.parse({ action: "react", emoji: 5 }));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/\bemoji: /);
    expect(error.details).toEqual({ issues: [{ path: ["emoji"], message: expect.any(String) }] });
  });

  it("rejects an emoji over the length limit naming emoji", () => {
    expect(chorusErrorOf(() => tool.parse({ action: "react", emoji: "x".repeat(129) })).message).toMatch(/\bemoji: /);
  });

  it.each([{ action: "send" }, { action: "send", text: "   " }])(
    "rejects send without text naming text (%j)",
    (call) => {
      const error = chorusErrorOf(() => tool.parse(call));
      expect(error.code).toBe("E_INVALID_INPUT");
      expect(error.message).toMatch(/\btext: /);
      expect(error.details?.issues).toContainEqual({
        path: ["text"],
        message: "text is required with action send (or media, or a location)",
      });
    },
  );

  it("rejects unknown keys, naming them", () => {
    const error = chorusErrorOf(() => tool.parse({ action: "react", emoji: "👍", emojis: ["👍"] }));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toContain("emojis");
  });

  it("rejects an unknown action naming action", () => {
    const error = chorusErrorOf(() => tool.parse({ action: "delete" }));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toMatch(/\baction: /);
  });

  it.each([null, "react", 42, []])("rejects a non-object call %j", (call) => {
    expect(chorusErrorOf(() => tool.parse(call)).code).toBe("E_INVALID_INPUT");
  });

  it.each<ReactionLevel>(["off", "ack"])("rejects react as E_DISABLED at reactionLevel %s", (reactionLevel) => {
    const hidden = buildMessageTool({ capabilities: discord, reactionLevel, channel: "Discord" });
    const error = chorusErrorOf(() => hidden.parse({ action: "react", emoji: "👍" }));
    expect(error.code).toBe("E_DISABLED");
    expect(error.message).toContain(`reactionLevel: ${reactionLevel}`);
    expect(chorusErrorOf(() => hidden.parse({ action: "reactions", messageId: "m1" })).code).toBe("E_DISABLED");
    expect(hidden.parse({ action: "send", text: "still fine" }).action).toBe("send");
  });

  it("rejects reactions as E_UNSUPPORTED where the channel cannot list", () => {
    const error = chorusErrorOf(() =>
      buildMessageTool({ capabilities: telegram, channel: "Telegram" }).parse({ action: "reactions", messageId: "m1" }),
    );
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.message).toContain("Telegram");
  });
});
