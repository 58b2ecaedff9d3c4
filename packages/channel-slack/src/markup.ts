import type { RichTextElement } from "./wire.js";

/** Names for the ids Slack markup refers to; undefined leaves the id. */
export interface MarkupNames {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
}

/** Slack's control sequences: `<@U…>`, `<#C…|name>`, `<!here>`, `<url|label>` … */
const CONTROL = /<([^<>]+)>/g;
const BROADCASTS = new Set(["here", "channel", "everyone"]);

/** `&amp;`, `&lt;` and `&gt;`: the only entities Slack escapes. */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The user ids a text mentions with `<@U…>` (not `<!here>` and friends), in order, once each. */
export function mentionedIn(text: string): string[] {
  const ids = [...text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => m[1] as string);
  return [...new Set(ids)];
}

/** The user ids of `user` elements anywhere in rich-text blocks. */
export function mentionedInBlocks(blocks: readonly unknown[] | undefined): string[] {
  const ids = new Set<string>();
  const walk = (element: RichTextElement) => {
    if (element.type === "user" && typeof element.user_id === "string") ids.add(element.user_id);
    for (const child of element.elements ?? []) if (child && typeof child === "object") walk(child);
  };
  for (const block of blocks ?? []) if (block && typeof block === "object") walk(block as RichTextElement);
  return [...ids];
}

/**
 * Slack's markup as a person reads it: `<@U1>` → `@Ann`, `<#C1|general>` → `#general`,
 * `<!here>` → `@here`, `<https://x|label>` → `label (https://x)`, entities unescaped.
 */
export function resolveMarkup(text: string, names: MarkupNames): string {
  let out = "";
  let at = 0;
  for (const match of text.matchAll(CONTROL)) {
    out += unescapeSlack(text.slice(at, match.index));
    out += controlText(match[1] as string, names);
    at = match.index + match[0].length;
  }
  return out + unescapeSlack(text.slice(at));
}

function controlText(inner: string, names: MarkupNames): string {
  const bar = inner.indexOf("|");
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : unescapeSlack(inner.slice(bar + 1));
  if (target.startsWith("@")) return `@${names.user(target.slice(1)) ?? label ?? target.slice(1)}`;
  if (target.startsWith("#")) return `#${label || names.channel(target.slice(1)) || target.slice(1)}`;
  if (target.startsWith("!")) {
    const command = target.slice(1);
    if (BROADCASTS.has(command)) return `@${command}`;
    // `<!subteam^S123|@design>`, `<!date^1392734382^{date}|Feb 18th>`: the label is what people see.
    if (label !== undefined) return label;
    return command.startsWith("subteam^") ? `@${command.slice("subteam^".length)}` : command;
  }
  const url = unescapeSlack(target);
  if (label === undefined || label === url || `mailto:${label}` === url) return label ?? url;
  return `${label} (${url})`;
}
