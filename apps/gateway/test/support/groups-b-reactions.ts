import type { WireMessage } from "@chorus/testkit";
import type { FakeChatRequest } from "../../src/testing/index.js";
import { type GroupsHarness, groupKey, reactionRequests } from "./groups-b-harness.js";

/** The `message` tool as a request offered it: its `action` values and parameter names. */
export function offeredTool(request: FakeChatRequest | undefined): { actions: string[]; params: string[] } {
  const tool = request?.tools?.find((t) => t.function.name === "message");
  const schema = tool?.function.parameters as { properties?: Record<string, { enum?: string[] }> } | undefined;
  const properties = schema?.properties ?? {};
  return { actions: properties.action?.enum ?? [], params: Object.keys(properties) };
}

/** The parsed tool results a request carried back to the model. */
export function toolResults(request: FakeChatRequest | undefined): unknown[] {
  return (request?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => {
      const content = m.content;
      const text = typeof content === "string" ? content : (content ?? []).map((p) => p.text ?? "").join("");
      return JSON.parse(text) as unknown;
    });
}

/** The emoji the bot added (`PUT`) and removed (`DELETE`) on a message, in request order. */
export function reactionHistory(h: GroupsHarness, messageId: string): { put: string[]; deleted: string[] } {
  const emojiOf = (path: string) => decodeURIComponent(path.split("/").at(-1) ?? "");
  const requests = reactionRequests(h, messageId);
  return {
    put: requests.filter((r) => r.method === "PUT").map((r) => emojiOf(r.path)),
    deleted: requests.filter((r) => r.method === "DELETE").map((r) => emojiOf(r.path)),
  };
}

/** A message that starts a turn in a conversation; resolves once that turn is committed (its reactions ended). */
export async function turnOn(
  h: GroupsHarness,
  input: {
    conversationId: string;
    senderId?: string;
    text: string;
    mention?: boolean;
    sessionKey?: string;
    turns: number;
  },
): Promise<WireMessage> {
  const sent = h.world.platform.userSends({
    conversationId: input.conversationId,
    senderId: input.senderId ?? "ann",
    text: input.text,
    ...(input.mention ? { mentions: ["bot"] } : {}),
  });
  await h.committed(input.sessionKey ?? groupKey(input.conversationId), input.turns);
  return sent;
}
