import { resolveEmoji } from "../emoji/resolve.js";
import type { ReactionVocabulary } from "../emoji/vocabulary.js";
import { ChorusError, UnsupportedEmojiError } from "../errors.js";
import type { ReactionCapabilities } from "./capabilities.js";
import type { ReactCall, ReactionIntent } from "./intent.js";
import { vocabularyFromNames } from "./vocabulary-of.js";

export interface NormalizeOptions {
  /** The channel's label, used in error messages ("… on Nextcloud Talk"). */
  channel?: string;
}

/** Longest emoji argument accepted; longer input is not an emoji of any platform. */
export const MAX_EMOJI_LENGTH = 128;

/**
 * Turns a `react` call into exactly one intent for a channel with these capabilities, or throws
 * a `ChorusError`. Applies DESIGN §2.2 rules 1–8 in order; rule 9 (mapping into the platform
 * vocabulary) is the plugin's, see `unsupportedEmoji`.
 */
export function normalizeReaction(
  call: unknown,
  capabilities: ReactionCapabilities,
  vocabulary?: ReactionVocabulary,
  options: NormalizeOptions = {},
): ReactionIntent {
  const { emoji, remove, clearAll } = readCall(call);
  const where = options.channel ? ` on ${options.channel}` : " on this channel";

  // 1. No emoji at all and no clearAll.
  if (emoji === undefined && !clearAll) {
    throw new ChorusError("E_EMOJI_REQUIRED", "emoji is required to react", {
      hint: 'Pass an emoji such as "👍" or "thumbsup".',
    });
  }
  const empty = emoji === undefined || emoji === "";

  // 2. Add-only channels refuse every kind of removal.
  if (capabilities.addOnly && (remove || empty || clearAll)) {
    throw new ChorusError("E_UNSUPPORTED", `Reactions cannot be removed${where}: removal is not supported.`, {
      hint: "Only adding a reaction is possible here; pass a non-empty emoji without remove or clearAll.",
    });
  }

  // 3. remove needs the emoji to remove.
  if (remove && empty) {
    throw new ChorusError("E_EMOJI_REQUIRED", "emoji is required with remove: true", {
      hint: capabilities.clearAll ? "To remove all your reactions, pass clearAll: true instead." : undefined,
    });
  }

  // 4. Explicit clearAll.
  if (clearAll) {
    if (!capabilities.clearAll) {
      throw new ChorusError("E_UNSUPPORTED", `clearAll is not supported${where}.`, {
        hint: "Remove reactions one at a time with remove: true and the emoji.",
      });
    }
    return intentOf("clear", emoji);
  }

  // 5. Empty emoji.
  if (empty) {
    if (capabilities.clearAll === true) return intentOf("clear", undefined);
    if (capabilities.clearAll === "explicit") {
      throw new ChorusError("E_EMOJI_REQUIRED", "emoji is required; an empty emoji does not clear reactions here", {
        hint: "Pass clearAll: true to remove all your reactions.",
      });
    }
    throw new ChorusError("E_EMOJI_REQUIRED", "emoji is required; an empty emoji is not a reaction", {
      hint: capabilities.singleSlot
        ? "To remove your reaction, pass remove: true with the emoji you reacted with."
        : undefined,
    });
  }

  // 6. Tapback-only: the emoji must map onto a kind.
  if (capabilities.tapbackOnly) {
    const kinds = vocabulary ?? vocabularyFromNames(capabilities.vocabulary ?? []);
    const kind = kinds.lookup(emoji);
    if (remove) return kind === undefined ? intentOf("clear", emoji) : intentOf("remove", emoji, kind);
    if (kind === undefined) {
      throw new UnsupportedEmojiError(
        `"${emoji}" is not a reaction kind${where}; emoji must be one of: ${kinds.names.join(", ")}.`,
        emoji,
        kinds.closest(emoji, kinds.names.length),
        `emoji must be one of: ${kinds.names.join(", ")}`,
      );
    }
    return intentOf("add", emoji, kind);
  }

  // 7. Single slot: removing means emptying the slot; adding replaces.
  if (capabilities.singleSlot) return intentOf(remove ? "clear" : "add", emoji);

  // 8. Otherwise, exactly what was asked.
  return intentOf(remove ? "remove" : "add", emoji);
}

function intentOf(op: ReactionIntent["op"], emoji: string | undefined, kind?: string): ReactionIntent {
  if (emoji === undefined || emoji === "") return { op };
  const resolved = resolveEmoji(emoji);
  return {
    op,
    emoji,
    ...(resolved ? { resolved } : {}),
    ...(kind !== undefined ? { kind } : {}),
  };
}

interface CheckedCall {
  emoji: string | undefined;
  remove: boolean;
  clearAll: boolean;
}

function readCall(call: unknown): CheckedCall {
  if (typeof call !== "object" || call === null || Array.isArray(call)) {
    throw new ChorusError("E_INVALID_INPUT", `react call must be an object, got ${describe(call)}`);
  }
  const { emoji, remove, clearAll } = call as ReactCall & Record<string, unknown>;
  if (emoji !== undefined && emoji !== null && typeof emoji !== "string") {
    throw new ChorusError("E_INVALID_INPUT", `emoji must be a string, got ${describe(emoji)}`);
  }
  if (typeof emoji === "string" && emoji.length > MAX_EMOJI_LENGTH) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `emoji is too long (${emoji.length} characters, at most ${MAX_EMOJI_LENGTH})`,
    );
  }
  for (const [key, value] of [
    ["remove", remove],
    ["clearAll", clearAll],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== "boolean") {
      throw new ChorusError("E_INVALID_INPUT", `${key} must be a boolean, got ${describe(value)}`);
    }
  }
  return {
    emoji: typeof emoji === "string" ? emoji.trim() : undefined,
    remove: remove === true,
    clearAll: clearAll === true,
  };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
