import { splitText } from "@chorus/core";

/**
 * The agent's Markdown as Slack mrkdwn. Slack's dialect: `*bold*`, `_italic_`, `~strike~`,
 * `<url|label>` links, `` `code` `` and fenced blocks without a language, no headings, no
 * tables; `&`, `<` and `>` escaped everywhere except in Slack's own `<…>` sequences, which an
 * agent may write on purpose (`<@U123>`, `<!here>`).
 */
export function toMrkdwn(markdown: string): string {
  const out: string[] = [];
  let fence: string[] | undefined;
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) {
        out.push(`\`\`\`\n${fence.map(escapeSlack).join("\n")}\n\`\`\``);
        fence = undefined;
      } else {
        fence = [];
      }
    } else if (fence) {
      fence.push(line);
    } else {
      out.push(convertLine(line));
    }
  }
  // An unclosed fence is still code.
  if (fence) out.push(`\`\`\`\n${fence.map(escapeSlack).join("\n")}\n\`\`\``);
  return out.join("\n");
}

function convertLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) return `*${inline(heading[1] as string, false)}*`;
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return "──────────";
  const task = /^(\s*)[-*+]\s+\[([ xX])\]\s+(.*)$/.exec(line);
  if (task) return `${task[1]}${task[2] === " " ? "☐" : "☑"} ${inline(task[3] as string)}`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}• ${inline(bullet[2] as string)}`;
  const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
  if (quote) return `> ${inline(quote[1] as string)}`;
  return inline(line);
}

/** Slack's own sequences, kept as written: user, channel, broadcast, subteam and link references. */
const SLACK_SEQUENCE = /<(?:[@#!][^<>\s|]+|(?:https?|mailto):[^<>\s|]+)(?:\|[^<>]*)?>/g;
const PROTECTED = /\uE000(\d+)\uE000/g;

/** One line's inline Markdown; `emphasis: false` inside a heading (already bold). */
function inline(text: string, emphasis = true): string {
  const kept: string[] = [];
  const keep = (value: string) => `\uE000${kept.push(value) - 1}\uE000`;
  let s = text
    .replace(/`([^`]+)`/g, (_, code: string) => keep(`\`${escapeSlack(code)}\``))
    .replace(SLACK_SEQUENCE, (sequence) => keep(sequence))
    .replace(/!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (_, label: string, url: string) =>
      keep(link(url, label)),
    );
  s = escapeSlack(s);
  if (emphasis) {
    s = s
      .replace(/\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*/g, "\uE001_$1_\uE001")
      .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, "\uE001$1\uE001")
      .replace(/(?<![\w_])__(?=\S)(.+?)(?<=\S)__(?![\w_])/g, "\uE001$1\uE001")
      .replace(/(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])/g, "_$1_")
      .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, "~$1~")
      .replace(/\uE001/g, "*");
  } else {
    s = s.replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2");
  }
  return s.replace(PROTECTED, (_, index: string) => kept[Number(index)] as string);
}

function link(url: string, label: string): string {
  const text = label.trim();
  return text === "" || text === url ? `<${url}>` : `<${url}|${escapeSlack(text).replace(/\|/g, "¦")}>`;
}

/** The three characters Slack reads as markup. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text that Slack takes in one message: split at `limit`, code fences closed and reopened across parts. */
export function splitMrkdwn(text: string, limit: number): string[] {
  const parts = splitText(text, limit - 8);
  let open = false;
  return parts.map((part) => {
    const body = open ? `\`\`\`\n${part}` : part;
    const fences = (part.match(/```/g) ?? []).length;
    open = fences % 2 === 1 ? !open : open;
    return open ? `${body}\n\`\`\`` : body;
  });
}
