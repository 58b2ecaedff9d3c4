import { randomBytes } from "node:crypto";
import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import QRCode from "qrcode";
import { newSession, sessionOf } from "./session-routes.js";
import type { FakeSession, FakeZaloState } from "./state.js";

/** One QR code of the login on `id.zalo.me`, from generation to confirmation. */
export interface FakeQr {
  code: string;
  /** What the QR image encodes. */
  text: string;
  state: "waiting" | "scanned" | "confirmed" | "declined" | "expired";
  session?: FakeSession;
}

/** How long one long-poll request is held before Zalo answers "still waiting" (error_code 8). */
const POLL_HOLD_MS = 500;
const LOGIN_VERSION = "2.44.10";

const form = (ctx: RequestContext) => new URLSearchParams(ctx.text());

/**
 * The QR login on `id.zalo.me` as zca-js drives it: the login page (its script version), login
 * info and client verification, `qr/generate` (a PNG of the code), then the long polls
 * `waiting-scan` and `waiting-confirm` (error_code 8 while nothing happened, -13 when refused on
 * the phone), `checksession` (the session cookie, redirecting to chat.zalo.me) and
 * `jr.chat.zalo.me/jr/userinfo`.
 */
export class FakeQrLogin {
  readonly codes: FakeQr[] = [];
  readonly #waiters = new Set<() => void>();

  constructor(
    private readonly state: FakeZaloState,
    server: FakeServer,
  ) {
    server.route("GET", "/account", () => ({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: `<!doctype html><html><head><script src="https://stc-zlogin.zdn.vn/main-${LOGIN_VERSION}.js"></script></head><body></body></html>`,
    }));
    server.route("POST", "/account/logininfo", () =>
      json(200, { error_code: 0, error_message: "", data: { logged: false } }),
    );
    server.route("POST", "/account/verify-client", () => json(200, { error_code: 0, error_message: "", data: {} }));
    server.route("POST", "/account/authen/qr/generate", async (ctx) => {
      if (form(ctx).get("v") !== LOGIN_VERSION) return json(200, { error_code: 400, error_message: "bad version" });
      const code = randomBytes(12).toString("hex");
      const text = `https://id.zalo.me/account/qr/login?code=${code}`;
      this.codes.push({ code, text, state: "waiting" });
      const image = (await QRCode.toBuffer(text, { type: "png", margin: 2, scale: 4 })).toString("base64");
      return json(200, {
        error_code: 0,
        error_message: "",
        data: {
          code,
          image: `data:image/png;base64,${image}`,
          options: { enabledCheckOCR: false, enabledMultiLayer: false },
          token: randomBytes(8).toString("hex"),
        },
      });
    });
    server.route("POST", "/account/authen/qr/waiting-scan", (ctx) =>
      this.#poll(form(ctx).get("code"), (qr): FakeResponse | undefined => {
        if (qr.state === "expired") return json(200, { error_code: -99, error_message: "QR code has expired" });
        if (qr.state === "waiting") return undefined;
        return json(200, { error_code: 0, error_message: "", data: { avatar: "", display_name: this.state.bot.name } });
      }),
    );
    server.route("POST", "/account/authen/qr/waiting-confirm", (ctx) =>
      this.#poll(form(ctx).get("code"), (qr): FakeResponse | undefined => {
        if (qr.state === "declined") return json(200, { error_code: -13, error_message: "User declined" });
        if (qr.state === "expired") return json(200, { error_code: -99, error_message: "QR code has expired" });
        if (qr.state !== "confirmed" || !qr.session) return undefined;
        return {
          status: 200,
          headers: { "set-cookie": [`zpsid=${qr.session.zpsid}; Domain=zalo.me; Path=/; HttpOnly; Secure`] },
          json: { error_code: 0, error_message: "", data: {} },
        };
      }),
    );
    server.route("GET", "/account/checksession", (ctx): FakeResponse => {
      const session = [...this.state.sessions.values()].find((s) => ctx.headers.cookie?.includes(`zpsid=${s.zpsid}`));
      if (!session)
        return {
          status: 302,
          headers: { location: "https://id.zalo.me/account?continue=https%3A%2F%2Fchat.zalo.me%2F" },
        };
      return {
        status: 302,
        headers: {
          location: "https://chat.zalo.me/index.html",
          "set-cookie": [`zpw_sek=${session.sek}; Domain=chat.zalo.me; Path=/; HttpOnly; Secure`],
        },
      };
    });
    server.route("GET", "/index.html", () => ({
      status: 200,
      headers: { "content-type": "text/html" },
      body: "<!doctype html><title>Zalo Web</title>",
    }));
    server.route("GET", "/jr/userinfo", (ctx) => {
      const session = sessionOf(this.state, ctx);
      if (!session) return json(200, { error_code: 0, error_message: "", data: { logged: false } });
      return json(200, {
        error_code: 0,
        error_message: "",
        data: { logged: true, info: { name: this.state.bot.name, avatar: "" } },
      });
    });
  }

  /** The QR code whose image says `text` (what a phone reads), or the newest one. */
  find(text?: string): FakeQr {
    const qr = text === undefined ? this.codes.at(-1) : this.codes.find((c) => c.text === text);
    if (!qr) throw new Error(`fake Zalo: no QR code ${text ?? "generated yet"}`);
    return qr;
  }

  /** Moves a QR code on (scanned, confirmed, declined, expired) and wakes the long polls. */
  set(qr: FakeQr, next: FakeQr["state"]): void {
    qr.state = next;
    if (next === "confirmed") qr.session = newSession(this.state);
    for (const wake of [...this.#waiters]) wake();
  }

  /** Holds a long poll until `answer` has one, or POLL_HOLD_MS passed ("still waiting"). */
  #poll(code: string | null, answer: (qr: FakeQr) => FakeResponse | undefined): Promise<FakeResponse> {
    const qr = this.codes.find((c) => c.code === code);
    if (!qr) return Promise.resolve(json(200, { error_code: -99, error_message: "QR code not found" }));
    return new Promise((resolve) => {
      const check = () => {
        const found = answer(qr);
        if (!found) return false;
        done(found);
        return true;
      };
      const done = (response: FakeResponse) => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(response);
      };
      const wake = () => void check();
      const timer = setTimeout(() => done(json(200, { error_code: 8, error_message: "Waiting" })), POLL_HOLD_MS);
      this.#waiters.add(wake);
      check();
    });
  }
}
