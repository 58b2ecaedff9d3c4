import type { ConfigIssue } from "./errors.js";
import { backtrackingRisk } from "./regex-safety.js";
import type { AgentConfig } from "./schema.js";
import { formatPath, type PathSegment } from "./values.js";

/** Compiles a mention pattern the way the gateway matches it: case-insensitive. */
export function compileMentionPattern(pattern: string): RegExp {
  return new RegExp(pattern, "i");
}

/** Mention patterns built from an agent's name: `\bChorus\b`, plus `@chorusbot` for `Chorus Bot`. */
export function defaultMentionPatterns(name: string): string[] {
  const trimmed = name.trim();
  if (trimmed === "") return [];
  const escaped = trimmed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  const start = /^\w/.test(trimmed) ? "\\b" : "(?<!\\w)";
  const end = /\w$/.test(trimmed) ? "\\b" : "(?!\\w)";
  const patterns = [`${start}${escaped}${end}`];
  const handle = trimmed.toLowerCase().replace(/[^a-z0-9_]/g, "");
  if (handle !== "" && handle !== trimmed.toLowerCase()) patterns.push(`@${handle}\\b`);
  return patterns;
}

/**
 * The mention patterns of an agent (DESIGN §4): its own `groupChat.mentionPatterns`, else
 * `messages.groupChat.mentionPatterns`, else patterns made from its name.
 */
export function mentionPatternsFor(
  agent: Pick<AgentConfig, "name" | "groupChat">,
  shared: string[] | undefined,
): string[] {
  return agent.groupChat?.mentionPatterns ?? shared ?? defaultMentionPatterns(agent.name);
}

/** Adds an issue for each pattern that is not a valid regex or can backtrack catastrophically, at `path[index]`. */
export function checkMentionPatterns(
  patterns: readonly string[] | undefined,
  path: PathSegment[],
  issues: ConfigIssue[],
): void {
  patterns?.forEach((pattern, index) => {
    try {
      compileMentionPattern(pattern);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "";
      issues.push({
        path: formatPath([...path, index]),
        message: `not a valid regular expression (${reason}); escape special characters like ( [ * with \\`,
        value: pattern,
      });
      return;
    }
    const risk = backtrackingRisk(pattern);
    if (risk) {
      issues.push({
        path: formatPath([...path, index]),
        message:
          `mention pattern ${JSON.stringify(pattern)} can take exponential time on some messages ` +
          `(catastrophic backtracking: ${risk}); rewrite it without nested or overlapping repetition, e.g. a+ instead of (a+)+ or (a|aa)+`,
        value: pattern,
      });
    }
  });
}
