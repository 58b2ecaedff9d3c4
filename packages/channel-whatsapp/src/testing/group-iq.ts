import { type BinaryNode, isJidGroup } from "@whiskeysockets/baileys";
import type { Directory } from "./directory.js";
import { groupNode } from "./group-nodes.js";
import { childNodes, iqError, iqResult, textOf } from "./nodes.js";

/**
 * Answers `xmlns="w:g2"` iqs: one group's metadata (404 for an unknown group, 403 when the bot is
 * not a member), every group the bot is in, and subject changes.
 */
export function groupResult(directory: Directory, iq: BinaryNode): BinaryNode {
  const to = iq.attrs.to ?? "";
  const first = childNodes(iq)[0];
  if (first?.tag === "participating") {
    const mine = [...directory.groups.values()].filter((group) => group.participants.includes(directory.bot.phone));
    return iqResult(iq, [{ tag: "groups", attrs: {}, content: mine.map((group) => groupNode(directory, group)) }]);
  }
  if (!isJidGroup(to)) return iqResult(iq);
  const group = directory.groups.get(to);
  if (!group) return iqError(iq, 404, "item-not-found");
  if (!group.participants.includes(directory.bot.phone)) return iqError(iq, 403, "forbidden");
  if (first?.tag === "query") return iqResult(iq, [groupNode(directory, group)]);
  if (first?.tag === "subject") {
    group.subject = textOf(first) ?? "";
    return iqResult(iq);
  }
  return iqResult(iq);
}
