import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import { decryptAes, encryptAes, sessionKey } from "../zalo/crypto.js";
import { sessionOf } from "./session-routes.js";
import type { FakeSession, FakeZaloState } from "./state.js";

/** A request's decrypted `params`. */
export type Params = Record<string, unknown>;

/** Zalo's envelope: `error_code` outside, the real answer AES-encrypted with the session key inside. */
export const answer = (session: FakeSession, data: unknown): FakeResponse =>
  json(200, {
    error_code: 0,
    error_message: "Successful.",
    data: encryptAes(sessionKey(session.enk), JSON.stringify({ error_code: 0, error_message: "", data })),
  });

/** Zalo refusing a call: its code and message in the outer envelope. */
export const refuse = (code: number, message: string): FakeResponse =>
  json(200, { error_code: code, error_message: message });

/** Zalo's "invalid parameters" (`Tham số không hợp lệ`), what it answers a call it cannot take. */
export const INVALID = 114;

/** What every service-map route needs of the fake. */
export interface RouteOptions {
  state: FakeZaloState;
  problem(text: string): void;
}

/** A route handler: the decrypted params, the caller's session, the request. */
export type ZaloHandler = (
  params: Params,
  session: FakeSession,
  ctx: RequestContext,
) => FakeResponse | Promise<FakeResponse>;

/**
 * One endpoint of the service map as Zalo answers it: the session named by the `zpw_sek` cookie
 * (102 when there is none or it ended), `params` AES-encrypted with its key — in the form body, or
 * in the query where the body is a file (uploads, `GET` calls) — and Zalo's envelope around the answer.
 */
export function zaloRoute(
  server: FakeServer,
  options: RouteOptions,
  method: "GET" | "POST",
  path: string,
  handle: ZaloHandler,
): void {
  server.route(method, path, (ctx) => {
    const session = sessionOf(options.state, ctx);
    if (!session || session.revoked) {
      return refuse(
        102,
        "The session key was improperly submitted or has reached its timeout. Direct the user to log in again to obtain another key",
      );
    }
    const form = method === "POST" && ctx.query.get("params") === null ? new URLSearchParams(ctx.text()) : ctx.query;
    let params: Params;
    try {
      params = JSON.parse(decryptAes(sessionKey(session.enk), form.get("params") ?? ""));
    } catch {
      options.problem(`${path}: params do not decrypt with the session key`);
      return refuse(INVALID, "Tham số không hợp lệ");
    }
    return handle(params, session, ctx);
  });
}
