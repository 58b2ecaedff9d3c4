import type { BinaryNode } from "@whiskeysockets/baileys";
import type { Directory } from "./directory.js";
import { childNodes, children, iqResult } from "./nodes.js";

/** What the server says it still holds of the bot's one-time prekeys: enough that Baileys uploads none. */
const PREKEYS_ON_SERVER = "50";

/** Answers `xmlns="encrypt"` iqs: prekey bundle fetches, the prekey count, the digest, uploads. */
export async function encryptResult(directory: Directory, iq: BinaryNode): Promise<BinaryNode> {
  const first = childNodes(iq)[0];
  switch (first?.tag) {
    case "key": {
      const users = children(first, "user").map((user) => bundleFor(directory, user.attrs.jid ?? ""));
      return iqResult(iq, [{ tag: "list", attrs: {}, content: await Promise.all(users) }]);
    }
    case "count":
      return iqResult(iq, [{ tag: "count", attrs: { value: PREKEYS_ON_SERVER } }]);
    case "digest":
      return iqResult(iq, [{ tag: "digest", attrs: {} }]);
    default:
      return iqResult(iq);
  }
}

function bundleFor(directory: Directory, jid: string): Promise<BinaryNode> {
  const device = directory.deviceFor(jid);
  if (device) return device.bundle(jid);
  return Promise.resolve({
    tag: "user",
    attrs: { jid },
    content: [{ tag: "error", attrs: { code: "404", text: "item-not-found" } }],
  });
}
