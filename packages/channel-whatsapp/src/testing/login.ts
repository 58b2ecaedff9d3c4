import type { BinaryNode, proto } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import type { FakeContext } from "./context.js";
import { initialHistorySync } from "./initial-sync.js";
import { unixSeconds } from "./nodes.js";
import { REFUSAL } from "./outage.js";

/** Reason WhatsApp gives a device that is not (or no longer) linked. */
const LOGGED_OUT = 401;

/**
 * A client logs in as `<phone>:<device>`: it must be a companion linked to the bot's account that
 * proves itself with the Noise key it linked with. Success is `<success lid=…>`, then whatever
 * arrived while it was offline, then `<ib><offline count/>`; otherwise `<failure reason>`.
 */
export function login(
  ctx: FakeContext,
  connection: FakeConnection,
  noiseKey: Uint8Array,
  payload: proto.ClientPayload,
): void {
  const { bot } = ctx.directory;
  const device = payload.device ?? 0;
  const forced = ctx.outage === "refuse" ? REFUSAL.code : ctx.loginFailures.shift();
  if (forced !== undefined) {
    refuse(connection, forced);
    return;
  }
  const companion = String(payload.username) === bot.phone ? ctx.companions.get(device) : undefined;
  if (!companion || companion.removed || !Buffer.from(companion.noiseKey).equals(Buffer.from(noiseKey))) {
    refuse(connection, LOGGED_OUT);
    return;
  }
  for (const other of ctx.connections) {
    if (other !== connection && other.loggedIn && other.device === device) replaced(other);
  }
  connection.device = device;
  connection.loggedIn = true;
  ctx.logins += 1;
  connection.send({
    tag: "success",
    attrs: {
      t: unixSeconds(),
      lid: `${bot.lid}:${device}@lid`,
      location: "fake",
      creation: unixSeconds(),
      props: "1",
    },
  });
  const offline = ctx.delivery.flushTo(connection);
  connection.send({ tag: "ib", attrs: {}, content: [{ tag: "offline", attrs: { count: String(offline) } }] });
  if (companion.awaitingInitialSync) {
    companion.awaitingInitialSync = false;
    connection.send(initialHistorySync(bot));
  }
}

function refuse(connection: FakeConnection, reason: number): void {
  connection.send({ tag: "failure", attrs: { reason: String(reason), location: "fake" } });
  connection.closeSoon();
}

/** Another connection logged in as the same device: WhatsApp closes the older one. */
function replaced(connection: FakeConnection): void {
  const conflict: BinaryNode = { tag: "conflict", attrs: { type: "replaced" } };
  connection.loggedIn = false;
  connection.send({ tag: "stream:error", attrs: {}, content: [conflict] });
  connection.closeSoon();
}
