import { ChorusError } from "@chorus/core";

/** What decides which session an inbound message belongs to. */
export interface SessionKeyInput {
  agentId: string;
  channel: string;
  conversation: { id: string; kind: "direct" | "group"; threadId?: string };
  senderId: string;
  /**
   * `owner-main` (the default): the owner's direct chats share the agent's main session, everyone
   * else gets their own; `main`: every direct chat shares one session; `per-peer`: one per sender and channel.
   */
  dmScope: DmScope;
  /** The sender is an owner of the channel by name (not by a `"*"` wildcard); read by `owner-main`. */
  owner?: boolean;
}

/** How direct chats map onto sessions (`session.dmScope`). */
export type DmScope = "owner-main" | "main" | "per-peer";

/** A session key taken apart. */
export type ParsedSessionKey =
  | { kind: "main"; agentId: string }
  | { kind: "group"; agentId: string; channel: string; conversationId: string; threadId?: string }
  | { kind: "dm"; agentId: string; channel: string; peerId: string };

/**
 * The session key of a message (DESIGN §4): `agent:<agentId>:<channel>:group:<id>[:topic:<threadId>]`,
 * `agent:<agentId>:main` or `agent:<agentId>:<channel>:dm:<senderId>`. Ids are kept verbatim except
 * `%` and `:`, which are percent-encoded so the key always parses back.
 */
export function sessionKeyFor(input: SessionKeyInput): string {
  const agent = `agent:${encodePart("agentId", input.agentId)}`;
  if (input.conversation.kind === "group") {
    const group = `${agent}:${encodePart("channel", input.channel)}:group:${encodePart("conversation.id", input.conversation.id)}`;
    const threadId = input.conversation.threadId;
    return threadId === undefined || threadId === "" ? group : `${group}:topic:${encodePart("threadId", threadId)}`;
  }
  if (input.conversation.kind !== "direct") {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `conversation.kind must be "direct" or "group", got ${String(input.conversation.kind)}`,
    );
  }
  if (input.dmScope === "main" || (input.dmScope === "owner-main" && input.owner === true)) return `${agent}:main`;
  if (input.dmScope !== "per-peer" && input.dmScope !== "owner-main") {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `dmScope must be "owner-main", "main" or "per-peer", got ${String(input.dmScope)}`,
    );
  }
  return `${agent}:${encodePart("channel", input.channel)}:dm:${encodePart("senderId", input.senderId)}`;
}

/** Takes a key made by `sessionKeyFor` apart; anything else is an `E_INVALID_INPUT` error. */
export function parseSessionKey(key: string): ParsedSessionKey {
  const parts = key.split(":");
  if (parts[0] === "agent" && parts.every((part) => part !== "")) {
    const [, agent, a, b, c, d, e] = parts.map(decodePart);
    if (parts.length === 3 && a === "main" && agent) return { kind: "main", agentId: agent };
    if (parts.length === 5 && b === "dm" && agent && a && c)
      return { kind: "dm", agentId: agent, channel: a, peerId: c };
    if (parts.length === 5 && b === "group" && agent && a && c) {
      return { kind: "group", agentId: agent, channel: a, conversationId: c };
    }
    if (parts.length === 7 && b === "group" && d === "topic" && agent && a && c && e) {
      return { kind: "group", agentId: agent, channel: a, conversationId: c, threadId: e };
    }
  }
  throw new ChorusError("E_INVALID_INPUT", `"${key}" is not a session key`, {
    hint: "expected agent:<agentId>:main, agent:<agentId>:<channel>:dm:<peer> or agent:<agentId>:<channel>:group:<id>[:topic:<thread>]",
  });
}

function encodePart(name: string, value: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ChorusError("E_INVALID_INPUT", `session key part ${name} must be a non-empty string`);
  }
  return value.replace(/[%:]/g, (char) => (char === "%" ? "%25" : "%3A"));
}

function decodePart(value: string): string {
  return value.replace(/%3A|%25/gi, (code) => (code === "%25" ? "%" : ":"));
}
