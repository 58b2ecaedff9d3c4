import type { MentionFacts } from "@chorus/core";
import { isAttachmentParameter } from "./attachments.js";
import { noteContentSchema, type RichParameter, richParameterSchema, type TalkNote } from "./wire.js";

/** Mention parameter types that name one actor, and the actor type Talk prefixes its id with. */
const ACTOR_PREFIX: Record<string, string> = {
  user: "users",
  guest: "guests",
  email: "emails",
  "federated-user": "federated_users",
  federated_user: "federated_users",
  "user-group": "groups",
  group: "groups",
  circle: "circles",
  team: "teams",
  bot: "bots",
};

/** A message's text and mention facts; `problem` says why `content` could not be read (then text is it raw). */
export interface NoteText {
  text: string;
  mentions: MentionFacts;
  /** The rich object parameters as sent (files and locations become attachments). */
  parameters: Readonly<Record<string, unknown>>;
  problem?: string;
}

/** A message's text with `{placeholders}` resolved, and the mention facts its parameters state. */
export function readNote(note: TalkNote, bot: { botId: string; botName?: string | undefined }): NoteText {
  let raw: unknown;
  try {
    raw = JSON.parse(note.content);
  } catch {
    return { text: note.content, mentions: { bot: false, others: [] }, parameters: {}, problem: "not JSON" };
  }
  const content = noteContentSchema.safeParse(raw);
  if (!content.success) {
    const problem = content.error.issues.map((i) => `${i.path.join(".") || "(content)"}: ${i.message}`).join("; ");
    return { text: note.content, mentions: { bot: false, others: [] }, parameters: {}, problem };
  }
  const parameters = new Map<string, RichParameter>();
  for (const [key, value] of Object.entries(content.data.parameters)) {
    const parsed = richParameterSchema.safeParse(value);
    if (parsed.success) parameters.set(key, parsed.data);
  }
  let mentioned = false;
  const others: string[] = [];
  for (const [key, parameter] of parameters) {
    if (!key.startsWith("mention-") || parameter.type === "call") continue; // `call` is @all
    const id = actorIdOf(parameter);
    if (id === bot.botId) mentioned = true;
    else if (!others.includes(id)) others.push(id);
  }
  const message = content.data.message;
  // A shared file or location alone (`{file}`, `{object}`): the message is its attachment, no text.
  const alone = /^\s*\{([a-z0-9_-]+)\}\s*$/iu.exec(message)?.[1];
  if (alone !== undefined && isAttachmentParameter(content.data.parameters[alone])) {
    return { text: "", mentions: { bot: false, others }, parameters: content.data.parameters };
  }
  const text = message.replace(/\{([a-z0-9_-]+)\}/giu, (whole, key: string) => {
    const parameter = parameters.get(key);
    if (!parameter) return whole;
    return key.startsWith("mention-") ? `@${parameter.name || parameter.id}` : parameter.name || whole;
  });
  // Talk offers no bot in its @-autocomplete: "@<bot name>" typed by hand stays plain text.
  if (!mentioned && bot.botName && mentionsByName(message, bot.botName)) mentioned = true;
  return { text, mentions: { bot: mentioned, others }, parameters: content.data.parameters };
}

function actorIdOf(parameter: RichParameter): string {
  if (parameter.id.includes("/")) return parameter.id;
  const prefix = ACTOR_PREFIX[parameter.type];
  return prefix ? `${prefix}/${parameter.id}` : parameter.id;
}

/** The `@<name>` pattern of each bot name seen, compiled once (a gateway runs a few bots, not thousands). */
const namePatterns = new Map<string, RegExp>();
const MAX_NAME_PATTERNS = 256;

function mentionsByName(message: string, name: string): boolean {
  let pattern = namePatterns.get(name);
  if (!pattern) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
    pattern = new RegExp(`(^|[^\\p{L}\\p{N}_])@"?${escaped}"?(?![\\p{L}\\p{N}_])`, "iu");
    if (namePatterns.size >= MAX_NAME_PATTERNS) namePatterns.clear();
    namePatterns.set(name, pattern);
  }
  return pattern.test(message);
}
