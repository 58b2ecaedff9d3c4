import type { BinaryNode } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import type { FakeContext } from "./context.js";
import { groupResult } from "./group-iq.js";
import type { Linking } from "./linking.js";
import { child, childNodes, iqError, iqResult } from "./nodes.js";
import { REFUSAL } from "./outage.js";
import type { PairingCodes } from "./pairing-code.js";
import { encryptResult } from "./prekeys.js";
import { usyncResult } from "./usync.js";

/** What answering iqs needs beyond the shared state. */
export interface IqDeps {
  ctx: FakeContext;
  linking: Linking;
  pairingCodes: PairingCodes;
}

/** Namespaces answered with a plain result: keep-alive, passive mode, dirty bits, stats, privacy tokens. */
const PLAIN_RESULT = new Set(["w:p", "passive", "urn:xmpp:whatsapp:dirty", "w:stats", "status"]);

/** The answer to an iq the bot sent; undefined for the bot's answers to the server's own iqs. */
export async function answerIq(
  deps: IqDeps,
  connection: FakeConnection,
  iq: BinaryNode,
): Promise<BinaryNode | undefined> {
  const { ctx } = deps;
  if (iq.attrs.type === "result" || iq.attrs.type === "error") {
    deps.linking.requests.answer(iq);
    return undefined;
  }
  const failure = ctx.outage === "refuse" ? REFUSAL : ctx.iqFaults.take(iq);
  if (failure) return iqError(iq, failure.code, failure.text);
  const xmlns = iq.attrs.xmlns ?? "";
  if (PLAIN_RESULT.has(xmlns)) return iqResult(iq);
  switch (xmlns) {
    case "usync":
      return usyncResult(ctx.directory, iq);
    case "encrypt":
      return encryptResult(ctx.directory, iq);
    case "w:g2":
      return groupResult(ctx.directory, iq);
    case "w:sync:app:state":
      return appStateResult(iq);
    case "privacy":
      return privacyResult(iq);
    case "abt":
      return iqResult(iq, [{ tag: "props", attrs: { protocol: "1" } }]);
    case "blocklist":
      return iqResult(iq, [{ tag: "list", attrs: {} }]);
    case "w:profile:picture":
      return iqError(iq, 404, "item-not-found");
    case "md":
      return mdResult(deps, connection, iq);
    case "w:m":
      return mediaConnResult(ctx, iq);
    default:
      ctx.log.markUnhandled(iq);
      return iqResult(iq);
  }
}

/** App-state sync: every requested collection is up to date (no patches, no snapshot). */
function appStateResult(iq: BinaryNode): BinaryNode {
  const collections = childNodes(child(iq, "sync")).map((collection) => ({
    tag: "collection",
    attrs: { name: collection.attrs.name ?? "", version: collection.attrs.version ?? "0" },
  }));
  return iqResult(iq, [{ tag: "sync", attrs: {}, content: collections }]);
}

/**
 * The media hosts and the upload auth (`<media_conn auth ttl auth_ttl max_buckets><host
 * hostname …/>`), shaped as WhatsApp answers it (mautrix/whatsapp issue 808 quotes a real one;
 * whatsmeow `mediaconn.go` and Baileys `refreshMediaConn` read it): one primary host, the fake's.
 */
function mediaConnResult(ctx: FakeContext, iq: BinaryNode): BinaryNode {
  if (!child(iq, "media_conn")) {
    ctx.log.markUnhandled(iq);
    return iqResult(iq);
  }
  const host: BinaryNode = {
    tag: "host",
    attrs: { hostname: ctx.media.hostname, class: "pop", type: "primary" },
    content: [
      { tag: "upload", attrs: {} },
      {
        tag: "download",
        attrs: {},
        content: ["image", "video", "gif", "ptt", "audio", "document", "sticker"].map((tag) => ({ tag, attrs: {} })),
      },
    ],
  };
  const attrs = { auth: ctx.media.auth, ttl: "300", auth_ttl: "21600", max_buckets: "12" };
  return iqResult(iq, [{ tag: "media_conn", attrs, content: [host] }]);
}

/** Privacy settings as a fresh account has them; setting anything succeeds. */
function privacyResult(iq: BinaryNode): BinaryNode {
  if (iq.attrs.type !== "get") return iqResult(iq);
  const settings: Record<string, string> = {
    readreceipts: "all",
    last: "all",
    online: "all",
    profile: "all",
    status: "contacts",
    groupadd: "all",
    calladd: "all",
    messages: "all",
  };
  const categories = Object.entries(settings).map(([name, value]) => ({ tag: "category", attrs: { name, value } }));
  return iqResult(iq, [{ tag: "privacy", attrs: {}, content: categories }]);
}

/** Multi-device management: pairing-code requests and a companion logging itself out. */
function mdResult(deps: IqDeps, connection: FakeConnection, iq: BinaryNode): BinaryNode {
  const first = childNodes(iq)[0];
  if (first?.tag === "link_code_companion_reg") return deps.pairingCodes.handle(connection, iq);
  if (first?.tag === "remove-companion-device") {
    const companion = deps.ctx.companions.get(connection.device);
    if (companion) companion.removed = true;
    return iqResult(iq);
  }
  deps.ctx.log.markUnhandled(iq);
  return iqResult(iq);
}
