import { Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelLoginContext,
  type ChannelLoginResult,
  ChorusError,
  isChorusError,
  type Logger,
} from "@chorus/core";
import { DisconnectReason } from "@whiskeysockets/baileys";
import { WHATSAPP_SECRET_KEYS, type WhatsAppConfig } from "../config.js";
import { baileysLogger } from "../connection/baileys-logger.js";
import { disconnectCode, openSocket } from "../connection/socket.js";
import { toWhatsAppError } from "../errors.js";
import { botIdentityOf, phoneDigits } from "../jids.js";
import { authDirOf, isLinked, openAuthState, type WhatsAppAuthState } from "./auth-state.js";
import { holdLoginLock } from "./login-lock.js";
import { linkedDeviceSecrets } from "./secrets.js";

/** Restarts WhatsApp may ask for during one login (one is normal: right after pairing). */
const MAX_RESTARTS = 3;

type Attempt = { readonly done: ChannelLoginResult } | { readonly restart: true };

/**
 * Links the account as a new device (`chorus channels login whatsapp`): shows each QR code, or
 * with `options.phone` prints a pairing code to type on the phone, reconnects when WhatsApp
 * asks for the restart that follows pairing, and resolves with the linked number once the
 * connection is open and the credentials are on disk. An account that is already linked is
 * reported as such. Fails with `E_AUTH` when the codes expire, WhatsApp refuses the link, or
 * the person cancels (`signal`).
 */
export async function linkAccount(ctx: ChannelLoginContext<WhatsAppConfig>): Promise<ChannelLoginResult> {
  // The new device's keys and the pairing code are secrets: no log line or error may carry them.
  const redactor = new Redactor(secretsOf(ctx.config, WHATSAPP_SECRET_KEYS));
  try {
    return await link({ ...ctx, logger: redactor.logger(ctx.logger) }, redactor);
  } catch (error) {
    throw redactor.error(error);
  }
}

async function link(ctx: ChannelLoginContext<WhatsAppConfig>, redactor: Redactor): Promise<ChannelLoginResult> {
  const dir = authDirOf(ctx.config, ctx.stateDir);
  const phone = ctx.options.phone === undefined ? undefined : pairingPhone(ctx.options.phone);
  let auth = await openAuth(dir, ctx.logger, redactor);
  const linked = isLinked(auth.state.creds) ? botIdentityOf(auth.state.creds.me, "whatsapp", ctx.accountId) : undefined;
  if (linked) {
    ctx.print(
      `WhatsApp is already linked as ${linked.e164}. To link another phone, remove this device under Linked devices on the phone, then run this again.`,
    );
    return { account: linked.e164 };
  }
  const release = await holdLoginLock(dir);
  try {
    if (auth.state.creds.me) {
      // A pairing code that was never entered leaves half-made credentials; start clean.
      await auth.clear();
      auth = await openAuth(dir, ctx.logger, redactor);
    }
    const state = { pairingRequested: false, codesShown: 0 };
    for (let restarts = 0; ; restarts++) {
      const attempt = await connectOnce(ctx, auth, phone, state, redactor);
      if ("done" in attempt) {
        ctx.print("A running gateway connects this account by itself; otherwise start it with `chorus start`.");
        return attempt.done;
      }
      if (restarts >= MAX_RESTARTS) {
        throw new ChorusError("E_PLATFORM", "WhatsApp kept asking to restart the connection while linking", {
          retryable: true,
          hint: "Run the command again.",
        });
      }
      ctx.logger.debug({ restarts: restarts + 1 }, "whatsapp: restarting the connection after pairing");
    }
  } finally {
    // Only now, with the login's socket ended and the credentials written, may a gateway connect.
    await release();
  }
}

/** Opens the auth state and tells the redactor the device's secrets. */
async function openAuth(dir: string, logger: Logger, redactor: Redactor): Promise<WhatsAppAuthState> {
  const auth = await openAuthState(dir, baileysLogger(logger));
  redactor.add(...linkedDeviceSecrets(auth.state.creds));
  return auth;
}

/** One socket of the login: until it opens (linked), closes, or the person gives up. */
function connectOnce(
  ctx: ChannelLoginContext<WhatsAppConfig>,
  auth: WhatsAppAuthState,
  phone: string | undefined,
  state: { pairingRequested: boolean; codesShown: number },
  redactor: Redactor,
): Promise<Attempt> {
  return new Promise<Attempt>((resolve, reject) => {
    const socket = openSocket({ config: ctx.config, auth, logger: ctx.logger });
    socket.ev.on("creds.update", () => redactor.add(...linkedDeviceSecrets(auth.state.creds)));
    let settled = false;
    const finish = (outcome: { ok: Attempt } | { error: ChorusError }) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener("abort", cancel);
      // The socket is always ended, and the credentials written, before the login returns.
      void socket
        .end(undefined)
        .catch(() => undefined)
        .then(() => auth.settled())
        .then(() => ("ok" in outcome ? resolve(outcome.ok) : reject(outcome.error)), reject);
    };
    const cancel = () => finish({ error: cancelled(ctx.signal) });
    if (ctx.signal.aborted) return cancel();
    ctx.signal.addEventListener("abort", cancel, { once: true });

    socket.ev.on("connection.update", (update) => {
      if (settled) return;
      if (update.qr) {
        state.codesShown++;
        if (phone === undefined) ctx.showQr(update.qr);
        else if (!state.pairingRequested) {
          state.pairingRequested = true;
          socket.requestPairingCode(phone).then(
            (code) => {
              const shown = pairingCodeText(code);
              redactor.add(code, shown);
              showPairingCode(ctx, shown);
            },
            (error: unknown) => finish({ error: toWhatsAppError(error, "pairing code request") }),
          );
        }
      }
      if (update.connection === "open") {
        const who = botIdentityOf(auth.state.creds.me, "whatsapp", ctx.accountId);
        if (who) return finish({ ok: { done: { account: who.e164 } } });
        return finish({
          error: new ChorusError("E_AUTH", "WhatsApp opened the connection but did not say which number was linked"),
        });
      }
      if (update.connection === "close") {
        const error = update.lastDisconnect?.error;
        const code = disconnectCode(error);
        if (code === DisconnectReason.restartRequired) return finish({ ok: { restart: true } });
        finish({ error: closedError(code, error, phone !== undefined, state.codesShown > 0, ctx.config) });
      }
    });
  });
}

/** The code as people type it: `ABCD-EFGH`. */
function pairingCodeText(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

function showPairingCode(ctx: ChannelLoginContext<WhatsAppConfig>, shown: string): void {
  ctx.print(`Your pairing code: ${shown}`);
  ctx.print(
    "On the phone: WhatsApp → Settings → Linked devices → Link a device → Link with phone number instead, then type the code.",
  );
}

/** Why the login's connection closed, as the error the command fails with. */
function closedError(
  code: number | undefined,
  error: Error | undefined,
  withPhone: boolean,
  codesShown: boolean,
  config: WhatsAppConfig,
): ChorusError {
  if (code === DisconnectReason.loggedOut) {
    return new ChorusError("E_AUTH", "WhatsApp refused to link this device", {
      hint: "Run the command again; if it keeps failing, check the phone's Linked devices list (at most 4 devices).",
      cause: error,
    });
  }
  if (code === DisconnectReason.timedOut && codesShown) {
    return new ChorusError(
      "E_AUTH",
      withPhone ? "the pairing code was not entered in time" : "the QR codes expired before one was scanned",
      { hint: "Run the command again and have the phone ready (Linked devices → Link a device).", cause: error },
    );
  }
  const reason = `${error?.message ?? "connection closed"}${code !== undefined ? ` (${code})` : ""}`;
  return new ChorusError("E_PLATFORM", `could not link WhatsApp: ${reason}`, {
    retryable: true,
    hint: `Check that ${config.waWebSocketUrl} is reachable, then run the command again.`,
    cause: error,
  });
}

function cancelled(signal: AbortSignal): ChorusError {
  return isChorusError(signal.reason) ? signal.reason : new ChorusError("E_AUTH", "login cancelled");
}

/** The digits of `--phone`, which must be a full number with country code. */
function pairingPhone(value: string): string {
  const digits = phoneDigits(value);
  if (digits === undefined) {
    throw new ChorusError("E_INVALID_INPUT", `--phone "${value}" is not a phone number`, {
      hint: "Give the number of the phone to link, with country code: --phone +15551234567",
    });
  }
  return digits;
}
