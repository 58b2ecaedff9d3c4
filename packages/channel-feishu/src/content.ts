import { ChorusError } from "@chorus/core";
import { emojiOfType } from "./vocabulary.js";

/** How a placeholder in the content (`@_user_1`) reads in plain text (`@Tom`). */
export type MentionNames = ReadonlyMap<string, string>;

/** One element of a rich-text (`post`) paragraph. */
interface PostElement {
  tag?: unknown;
  text?: unknown;
  href?: unknown;
  user_id?: unknown;
  user_name?: unknown;
  emoji_type?: unknown;
  language?: unknown;
}

/** What non-text messages read as, so the agent knows something was sent. */
const PLACEHOLDERS: Record<string, string> = {
  image: "[image]",
  file: "[file]",
  audio: "[voice message]",
  media: "[video]",
  sticker: "[sticker]",
  interactive: "[card]",
  share_chat: "[shared chat]",
  share_user: "[shared contact]",
  merge_forward: "[forwarded messages]",
  location: "[location]",
  todo: "[task]",
  vote: "[poll]",
};

/**
 * A received message's content (a JSON string shaped by its type) as plain text: `text` with its
 * `@_user_N` placeholders replaced by names, `post` (rich text) flattened with its links kept,
 * other types as a short placeholder. Throws `E_INVALID_INPUT` naming what it cannot read.
 */
export function plainText(messageType: string, content: string, names: MentionNames): string {
  if (messageType !== "text" && messageType !== "post") {
    const placeholder = PLACEHOLDERS[messageType] ?? `[${messageType} message]`;
    if (messageType !== "file") return placeholder;
    const file = parse(content, "file").file_name;
    return typeof file === "string" ? `[file: ${file}]` : placeholder;
  }
  const body = parse(content, messageType);
  if (messageType === "text") {
    if (typeof body.text !== "string") throw unreadable("text content has no text string");
    return replaceMentions(body.text, names);
  }
  return flattenPost(body, names);
}

/** Rich text as lines: the title first, then each paragraph with its elements run together. */
function flattenPost(body: Record<string, unknown>, names: MentionNames): string {
  // Received posts are `{ title, content }`; the form the send API takes nests them per locale.
  const post = Array.isArray(body.content) ? body : Object.values(body).find(isPost);
  if (!isPost(post)) throw unreadable("post content has no content paragraphs");
  const lines: string[] = [];
  if (typeof post.title === "string" && post.title.trim() !== "") lines.push(post.title);
  for (const paragraph of post.content as unknown[]) {
    if (!Array.isArray(paragraph)) throw unreadable("a post paragraph is not a list of elements");
    lines.push(paragraph.map((element: PostElement) => flattenElement(element, names)).join(""));
  }
  return lines.join("\n");
}

function flattenElement(element: PostElement, names: MentionNames): string {
  const text = typeof element.text === "string" ? element.text : "";
  switch (element.tag) {
    case "text":
    case "md":
      return replaceMentions(text, names);
    case "a": {
      const href = typeof element.href === "string" ? element.href : "";
      return text === "" || text === href ? href : `${text} (${href})`;
    }
    case "at":
      return mentionText(element, names);
    case "img":
      return "[image]";
    case "media":
      return "[video]";
    case "emotion":
      return typeof element.emoji_type === "string" ? emojiOfType(element.emoji_type) : "";
    case "hr":
      return "---";
    case "code_block":
      return `\`\`\`${typeof element.language === "string" ? element.language.toLowerCase() : ""}\n${text}\n\`\`\``;
    default:
      return text;
  }
}

function mentionText(element: PostElement, names: MentionNames): string {
  const id = typeof element.user_id === "string" ? element.user_id : "";
  if (id === "all" || id === "@_all") return "@all";
  const name = names.get(id) ?? (typeof element.user_name === "string" ? element.user_name : undefined);
  return `@${name ?? id}`;
}

/** `@_user_1 hi` → `@Tom hi`; `@_all` → `@all`. Longest keys first, so `@_user_10` is not read as `@_user_1`. */
export function replaceMentions(text: string, names: MentionNames): string {
  let out = text.replaceAll("@_all", "@all");
  for (const key of [...names.keys()].sort((a, b) => b.length - a.length)) {
    out = out.replaceAll(key, `@${names.get(key)}`);
  }
  return out;
}

function isPost(value: unknown): value is { title?: unknown; content: unknown[] } {
  return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}

function parse(content: string, what: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    throw unreadable(`${what} content is not JSON`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw unreadable(`${what} content is not an object`);
  return body as Record<string, unknown>;
}

function unreadable(problem: string): ChorusError {
  return new ChorusError("E_INVALID_INPUT", `unreadable message content: ${problem}`);
}
