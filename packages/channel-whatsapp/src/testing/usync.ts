import type { BinaryNode } from "@whiskeysockets/baileys";
import type { Directory, Member } from "./directory.js";
import { child, childNodes, children, iqResult, textOf } from "./nodes.js";

/**
 * Answers a `usync` query for the protocols Baileys asks: `devices`, `lid` and `contact`. Every
 * account lists only its phone (device 0): listing the bot's own companion would make Baileys 7
 * encrypt to itself in LID groups (its own-device filter compares a LID user with a device JID),
 * and the fake holds no prekeys for companions.
 */
export function usyncResult(directory: Directory, iq: BinaryNode): BinaryNode {
  const usync = child(iq, "usync");
  const protocols = childNodes(child(usync, "query")).map((node) => node.tag);
  const users = children(child(usync, "list"), "user").map((user) => {
    const phone = textOf(child(user, "contact"))?.replace(/^\+/, "");
    const jid = user.attrs.jid ?? `${phone}@s.whatsapp.net`;
    const member = directory.memberByJid(jid);
    const content: BinaryNode[] = [];
    for (const protocol of protocols) {
      const node = protocolNode(protocol, jid, member);
      if (node) content.push(node);
    }
    return { tag: "user", attrs: { jid }, content };
  });
  return iqResult(iq, [
    {
      tag: "usync",
      attrs: { sid: usync?.attrs.sid ?? "", index: "0", last: "true", mode: usync?.attrs.mode ?? "query" },
      content: [{ tag: "list", attrs: {}, content: users }],
    },
  ]);
}

function protocolNode(protocol: string, jid: string, member: Member | undefined): BinaryNode | undefined {
  switch (protocol) {
    case "devices":
      return { tag: "devices", attrs: {}, content: [{ tag: "device-list", attrs: {}, content: devicesOf(member) }] };
    case "lid":
      return member && !jid.endsWith("@lid") ? { tag: "lid", attrs: { val: member.lidJid } } : undefined;
    case "contact":
      return { tag: "contact", attrs: { type: member ? "in" : "out" } };
    default:
      return undefined;
  }
}

function devicesOf(member: Member | undefined): BinaryNode[] {
  return member ? [{ tag: "device", attrs: { id: "0" } }] : [];
}
