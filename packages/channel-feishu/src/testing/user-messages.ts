import type { FeishuMessage } from "../wire.js";
import type { FakeUser } from "./fake-state.js";

/** Who a person `@`s: someone, the bot, or everyone. */
export type MentionTarget = FakeUser | "bot" | "all";

/** What a person writes, in the terms of the Feishu client. */
export interface UserMessageInput {
  chatId: string;
  from: FakeUser;
  /** A text message. `@_user_N` placeholders may stand where the mentions go; else they come first. */
  text?: string;
  /** A rich-text message, as Feishu delivers it: `{ title, content: [[elements]] }` (no locale). */
  post?: { title?: string; content: Record<string, unknown>[][] };
  /** Another message type with its raw content (`image` with `{"image_key":…}`). */
  raw?: { type: string; content: Record<string, unknown> };
  /** In order: the first is `@_user_1` (`@_all` for everyone). */
  mentions?: MentionTarget[];
  /** The message this one replies to. */
  replyTo?: string;
  /** Reply in a thread (a topic): the reply and its parent join one thread. */
  inThread?: boolean;
}

/** A message's `msg_type`, its content (a JSON string) and its mentions, as Feishu stores them. */
export function messageContent(
  input: UserMessageInput,
  bot: { open_id: string; app_name: string },
  tenantKey: string,
): { msgType: string; content: string; mentions: NonNullable<FeishuMessage["mentions"]> } {
  const mentions: NonNullable<FeishuMessage["mentions"]> = [];
  const keys: string[] = [];
  for (const target of input.mentions ?? []) {
    if (target === "all") {
      // "@all" is written as `@_all` and is no entry of `mentions`.
      keys.push("@_all");
      continue;
    }
    const key = `@_user_${mentions.length + 1}`;
    const [id, name] = target === "bot" ? [bot.open_id, bot.app_name] : [target.open_id, target.name];
    mentions.push({ key, id, id_type: "open_id", name, tenant_key: tenantKey });
    keys.push(key);
  }
  if (input.raw) return { msgType: input.raw.type, content: JSON.stringify(input.raw.content), mentions };
  if (input.post) return { msgType: "post", content: JSON.stringify(input.post), mentions };
  const text = input.text ?? "";
  const placed = keys.length === 0 || keys.some((key) => text.includes(key));
  return {
    msgType: "text",
    content: JSON.stringify({ text: placed ? text : `${keys.join(" ")} ${text}` }),
    mentions,
  };
}
