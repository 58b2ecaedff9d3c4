import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { writeFileAtomic } from "@chorus/channel-kit/state";
import { type ChannelLoginContext, type ChannelLoginResult, ChorusError, isChorusError } from "@chorus/core";
import { LoginQRCallbackEventType } from "zca-js";
import type { ZalouserConfig } from "./config.js";
import { readQrPng } from "./qr-image.js";
import { writeSession, type ZaloSession } from "./session.js";
import { createZalo } from "./zalo/client.js";
import { toChorusError } from "./zalo/errors.js";
import { observed } from "./zalo/transport.js";

/** Where the QR code of a login is saved, in the account's state directory. */
export const QR_FILE = "login-qr.png";

/** Why a QR login ended without a session. */
type Ending = "expired" | "declined" | "cancelled";

const ENDINGS: Record<Ending, string> = {
  expired: "The QR code expired before it was scanned and confirmed on the phone.",
  declined: "The login was refused on the phone.",
  cancelled: "The login was cancelled.",
};

/**
 * `chorus channels login zalouser`: zca-js' QR login. Shows the QR code (read out of the PNG Zalo
 * sends, and saved next to the account's state as a PNG whose path is printed), waits for the
 * scan and the confirmation on the phone, and stores the session in the store, where a running
 * gateway picks it up by itself. An expired or refused QR code fails with a clear error.
 */
export async function loginWithQr(ctx: ChannelLoginContext<ZalouserConfig>): Promise<ChannelLoginResult> {
  const { config } = ctx;
  const redactor = new Redactor();
  const logger = redactor.logger(ctx.logger);
  // Zalo holds the waiting-scan request open while nobody scans: give it the QR code's lifetime.
  const timeoutMs = Math.max(config.timeoutMs, config.qrTimeoutMs);
  const zalo = createZalo({ apiBase: config.apiBase, mediaHosts: config.mediaHosts, timeoutMs, signal: ctx.signal });
  let ending: Ending | undefined;
  let abort: (() => unknown) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let scannedBy: string | undefined;
  const end = (why: Ending) => {
    ending ??= why;
    clearTimeout(timer);
    abort?.();
  };
  const onAbort = () => end("cancelled");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  const pending: Promise<unknown>[] = [];
  const outcome = await observed(() =>
    zalo.loginQR({ userAgent: config.userAgent, language: config.language }, (event) => {
      if (event.actions) abort = event.actions.abort;
      switch (event.type) {
        case LoginQRCallbackEventType.QRCodeGenerated: {
          const file = join(ctx.stateDir, QR_FILE);
          pending.push(
            writeFileAtomic(file, Buffer.from(event.data.image, "base64")).then(
              () => ctx.print(`The QR code is also saved as ${file}`),
              (error: unknown) => logger.warn({ err: error }, `zalouser: could not save the QR code: ${String(error)}`),
            ),
          );
          const text = readQrPng(event.data.image);
          if (text) ctx.showQr(text);
          else ctx.print("The QR code could not be shown here: open the saved image instead.");
          ctx.print("Open Zalo on your phone, scan it with the QR scanner, then confirm the login there.");
          timer = setTimeout(() => end("expired"), config.qrTimeoutMs);
          break;
        }
        case LoginQRCallbackEventType.QRCodeScanned:
          scannedBy = event.data.display_name;
          ctx.print(`Scanned by ${scannedBy}: confirm the login on your phone.`);
          break;
        case LoginQRCallbackEventType.QRCodeExpired:
          end("expired");
          break;
        case LoginQRCallbackEventType.QRCodeDeclined:
          end("declined");
          break;
        case LoginQRCallbackEventType.GotLoginInfo:
          clearTimeout(timer);
          redactor.add(event.data.imei, ...event.data.cookie.map((c) => String(c.value)));
          break;
      }
    }),
  );
  clearTimeout(timer);
  ctx.signal.removeEventListener("abort", onAbort);
  await Promise.all(pending);
  if (outcome.error !== undefined || !outcome.result) {
    if (ending)
      throw new ChorusError("E_AUTH", ENDINGS[ending], { hint: "Run `chorus channels login zalouser` again." });
    const failure = toChorusError(outcome.error, outcome.facts, "log in with the QR code");
    if (isChorusError(outcome.error) || failure.code !== "E_PLATFORM" || failure.retryable)
      throw redactor.error(failure);
    // zca-js' own words when Zalo ended the wait: "Cannot get scan result" and the like.
    throw new ChorusError("E_AUTH", `Zalo ended the QR login before it was confirmed: ${failure.message}`, {
      hint: "The code may have expired or been cancelled; run `chorus channels login zalouser` again.",
    });
  }
  const api = outcome.result;
  const context = api.getContext();
  const session: ZaloSession = {
    imei: context.imei,
    userAgent: context.userAgent,
    language: context.language,
    cookies: (api.getCookie().toJSON()?.cookies ?? []) as ZaloSession["cookies"],
    uid: api.getOwnId(),
    ...(scannedBy ? { name: scannedBy } : {}),
    linkedAt: new Date().toISOString(),
  };
  await writeSession(ctx.store, session);
  ctx.print("A running gateway connects this account by itself; otherwise start it with `chorus start`.");
  return { account: scannedBy ? `${scannedBy} (${session.uid})` : session.uid };
}
