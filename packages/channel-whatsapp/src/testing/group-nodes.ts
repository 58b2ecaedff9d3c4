import type { BinaryNode } from "@whiskeysockets/baileys";
import type { Directory, FakeGroup } from "./directory.js";

/** The `<group>` node of a metadata answer, as Baileys' `extractGroupMetadata` reads it. */
export function groupNode(directory: Directory, group: FakeGroup): BinaryNode {
  const lidMode = group.addressingMode === "lid";
  const creator = directory.memberByPhone(group.creator);
  const attrs: Record<string, string> = {
    id: group.id.replace(/@g\.us$/, ""),
    subject: group.subject,
    s_t: String(group.creation),
    s_o: directory.addressOf(creator, group.addressingMode),
    creation: String(group.creation),
    creator: directory.addressOf(creator, group.addressingMode),
    size: String(group.participants.length),
    addressing_mode: group.addressingMode,
  };
  if (lidMode) attrs.creator_pn = creator.jid;
  const participants = group.participants.map((phone): BinaryNode => {
    const member = directory.memberByPhone(phone);
    const participant: Record<string, string> = lidMode
      ? { jid: member.lidJid, phone_number: member.jid }
      : { jid: member.jid, lid: member.lidJid };
    if (group.admins.includes(phone)) participant.type = phone === group.creator ? "superadmin" : "admin";
    return { tag: "participant", attrs: participant };
  });
  return { tag: "group", attrs, content: participants };
}
