import type { MentionFacts } from "@chorus/core";
import { backtrackingRisk, ConfigError, type ConfigIssue } from "../config/index.js";
import { stripInvisible } from "../support/index.js";

export interface CompileMentionOptions {
  /** Config path of the list, for error messages (`agents.list[0].groupChat.mentionPatterns`). */
  path?: string;
}

const compiled = new WeakMap<readonly string[], RegExp[]>();

/**
 * Compiles mention patterns case-insensitively, rejecting invalid ones and ones that can backtrack
 * catastrophically with a `ConfigError` naming each pattern. Memoised per array: calling it again
 * with the same (unchanged) array returns the same RegExps without recompiling.
 */
export function compileMentionPatterns(patterns: readonly string[], options: CompileMentionOptions = {}): RegExp[] {
  const cached = compiled.get(patterns);
  if (cached) return cached;
  const path = options.path ?? "mentionPatterns";
  const issues: ConfigIssue[] = [];
  const result: RegExp[] = [];
  patterns.forEach((pattern, index) => {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, "i");
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "";
      issues.push({
        path: `${path}[${index}]`,
        message: `mention pattern ${JSON.stringify(pattern)} is not a valid regular expression (${reason}); escape special characters like ( [ * with \\`,
        value: pattern,
      });
      return;
    }
    const risk = backtrackingRisk(pattern);
    if (risk) {
      issues.push({
        path: `${path}[${index}]`,
        message:
          `mention pattern ${JSON.stringify(pattern)} can take exponential time on some messages ` +
          `(catastrophic backtracking: ${risk}); rewrite it without nested or overlapping repetition, e.g. a+ instead of (a+)+ or (a|aa)+`,
        value: pattern,
      });
      return;
    }
    result.push(regex);
  });
  if (issues.length > 0) throw new ConfigError(issues);
  compiled.set(patterns, result);
  return result;
}

export type MentionSource = "platform" | "reply" | "pattern" | "e164";

export interface MentionInput {
  text: string;
  /** What the platform itself says about mentions in this message. */
  mentions: MentionFacts;
  /** Set when the message replies to another; `fromBot` when that one was the bot's. */
  replyTo?: { fromBot: boolean };
  /** From `compileMentionPatterns`. */
  patterns: readonly RegExp[];
  /** The bot's own phone number (`instance.identity().e164`), when the channel has one. */
  botE164?: string;
}

export interface MentionResult {
  mentioned: boolean;
  /** What counted as the mention; `null` when not mentioned. */
  by: MentionSource | null;
}

const NOT_MENTIONED: MentionResult = Object.freeze({ mentioned: false, by: null }) as MentionResult;

/**
 * Whether a group message mentions the bot (DESIGN §4): the platform's own mention of the bot,
 * then a reply to the bot; when the platform names others but not the bot, nothing else is tried;
 * then the patterns and the bot's E.164 digits, on the text without zero-width and bidi characters.
 */
export function detectMention(input: MentionInput): MentionResult {
  if (input.mentions.bot) return { mentioned: true, by: "platform" };
  if (input.replyTo?.fromBot === true) return { mentioned: true, by: "reply" };
  if (input.mentions.others.length > 0) return NOT_MENTIONED;
  const text = stripInvisible(input.text);
  for (const pattern of input.patterns) {
    pattern.lastIndex = 0;
    if (pattern.test(text)) return { mentioned: true, by: "pattern" };
  }
  const phone = input.botE164 === undefined ? undefined : phonePattern(input.botE164);
  if (phone?.test(text)) return { mentioned: true, by: "e164" };
  return NOT_MENTIONED;
}

const phonePatterns = new Map<string, RegExp | undefined>();
const MAX_PHONE_PATTERNS = 1024;

/**
 * The bot's number anywhere in a text: its digits with optional `+`, spaces or dashes between
 * them, but not inside a longer number (no digit, or dash and digit, on either side).
 */
function phonePattern(e164: string): RegExp | undefined {
  if (phonePatterns.has(e164)) return phonePatterns.get(e164);
  const digits = e164.replace(/\D/g, "");
  const pattern =
    digits.length === 0 ? undefined : new RegExp(`(?<!\\d-?)(?:\\+\\s*)?${digits.split("").join("[\\s-]*")}(?!-?\\d)`);
  if (phonePatterns.size >= MAX_PHONE_PATTERNS) phonePatterns.clear();
  phonePatterns.set(e164, pattern);
  return pattern;
}
