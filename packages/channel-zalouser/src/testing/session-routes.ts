import { randomBytes } from "node:crypto";
import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import { decryptAes, encryptAes, loginKey } from "../zalo/crypto.js";
import type { FakeSession, FakeZaloState } from "./state.js";
import type { FakeShareFile } from "./upload-routes.js";
import { signKey } from "./wire.js";

/** The hosts the fake's service map names, as Zalo's does (each `*.zalo.me`, redirected by `apiBase`). */
const HOSTS = {
  chat: "https://tt-chat2-wpa.chat.zalo.me",
  group: "https://tt-group-wpa.chat.zalo.me",
  file: "https://tt-files-wpa.chat.zalo.me",
  profile: "https://tt-profile-wpa.chat.zalo.me",
  reaction: "https://reaction.chat.zalo.me",
  other: "https://tt-convers-wpa.chat.zalo.me",
};

/** Every key of `zpw_service_map_v3` zca-js reads (it fails to start without one), with its hosts. */
export function serviceMap(): Record<string, string[]> {
  const other = [
    "other_contact",
    "chat_e2e",
    "workspace",
    "catalog",
    "boards",
    "downloadStickerUrl",
    "sp_contact",
    "zcloud_up_file",
    "media_store_send2me",
    "push_act",
    "aext",
    "zfamily",
    "group_poll",
    "group_cloud_message",
    "media_store",
    "auto_reply",
    "sync_action",
    "friendLan",
    "friend",
    "alias",
    "zimsg",
    "group_board",
    "conversation",
    "fallback_LP",
    "friend_board",
    "up_file",
    "zavi",
    "voice_call",
    "sticker",
    "label",
    "consent",
    "zcloud",
    "todoUrl",
    "recent_search",
    "group_e2e",
    "quick_message",
  ];
  return {
    ...Object.fromEntries(other.map((key) => [key, [HOSTS.other]])),
    chat: [HOSTS.chat],
    group: [HOSTS.group],
    file: [HOSTS.file],
    profile: [HOSTS.profile],
    reaction: [HOSTS.reaction],
  };
}

/** The listener URLs Zalo hands out at login. */
export const LISTENER_URLS = ["wss://ws1-msg.chat.zalo.me/ws", "wss://ws2-msg.chat.zalo.me/ws"];

/** The request's cookies by name. */
export function cookiesOf(ctx: Pick<RequestContext, "headers">): Map<string, string> {
  const header = ctx.headers.cookie ?? "";
  return new Map(
    header
      .split(/;\s*/)
      .filter((pair) => pair.includes("="))
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as [string, string]),
  );
}

/** What the login routes tell the rest of the fake. */
export interface SessionRoutesOptions {
  state: FakeZaloState;
  /** How often the listener expects a ping (`ping_interval`). */
  pingIntervalMs: () => number;
  /** The file limits handed out (`features.sharefile`). */
  sharefile: () => FakeShareFile;
  /** Something the fake saw that Zalo would refuse (a wrong signkey): tests assert there is none. */
  problem(text: string): void;
  /** Counts each successful login. */
  loggedIn(session: FakeSession): void;
}

const SESSION_ENDED = {
  error_code: 102,
  error_message:
    "The session key was improperly submitted or has reached its timeout. Direct the user to log in again to obtain another key",
  data: null,
};

/** The session a request's `zpw_sek` cookie names, or undefined. */
export const sessionOf = (state: FakeZaloState, ctx: Pick<RequestContext, "headers">): FakeSession | undefined =>
  state.sessions.get(cookiesOf(ctx).get("zpw_sek") ?? "");

/** Creates a session for the bot, as a finished QR login does. */
export function newSession(state: FakeZaloState, imei?: string): FakeSession {
  const session: FakeSession = {
    sek: randomBytes(24).toString("base64url"),
    zpsid: randomBytes(40).toString("base64url"),
    uid: state.bot.id,
    ...(imei ? { imei } : {}),
    enk: randomBytes(32).toString("base64"),
    revoked: false,
  };
  state.sessions.set(session.sek, session);
  return session;
}

/**
 * The login pair on `wpa.chat.zalo.me`: `getLoginInfo` (params AES-encrypted with a key both
 * sides derive from `zcid`/`zcid_ext`, the answer encrypted with it too, carrying the session key
 * `zpw_enk`, the service map and the listener URLs) and `getServerInfo` (plain settings).
 */
export function addSessionRoutes(server: FakeServer, options: SessionRoutesOptions): void {
  const { state } = options;
  server.route("GET", "/api/login/getLoginInfo", (ctx): FakeResponse => {
    const q = Object.fromEntries(ctx.query);
    const signed = {
      zcid: q.zcid,
      zcid_ext: q.zcid_ext,
      enc_ver: q.enc_ver,
      params: q.params,
      type: q.type,
      client_version: q.client_version,
    };
    if (Object.values(signed).some((v) => v === undefined))
      return json(400, { error_code: 400, error_message: "missing params" });
    if (signKey("getlogininfo", signed as Record<string, string>) !== q.signkey)
      options.problem("getLoginInfo: wrong signkey");
    const key = loginKey(q.zcid as string, q.zcid_ext as string);
    let params: { imei?: string };
    try {
      params = JSON.parse(decryptAes(key, q.params as string));
    } catch {
      options.problem("getLoginInfo: params do not decrypt with the key of zcid/zcid_ext");
      return json(200, {
        error_code: 0,
        error_message: "Successful.",
        data: encryptAes(key, JSON.stringify(SESSION_ENDED)),
      });
    }
    const session = sessionOf(state, ctx);
    let inner: unknown = SESSION_ENDED;
    if (session && !session.revoked && params.imei && (session.imei ?? params.imei) === params.imei) {
      session.imei = params.imei;
      options.loggedIn(session);
      inner = {
        error_code: 0,
        error_message: "",
        data: {
          uid: session.uid,
          zpw_enk: session.enk,
          zpw_service_map_v3: serviceMap(),
          zpw_ws: LISTENER_URLS,
          haspcclient: 0,
          public_ip: "127.0.0.1",
          language: "vi",
          send2me_id: session.uid,
        },
      };
    }
    return json(200, { error_code: 0, error_message: "Successful.", data: encryptAes(key, JSON.stringify(inner)) });
  });

  server.route("GET", "/api/login/getServerInfo", (ctx): FakeResponse => {
    const q = Object.fromEntries(ctx.query);
    const signed = { imei: q.imei, type: q.type, client_version: q.client_version, computer_name: q.computer_name };
    if (signKey("getserverinfo", signed as Record<string, string>) !== q.signkey)
      options.problem("getServerInfo: wrong signkey");
    // "setttings": Zalo's own spelling, which zca-js reads first.
    return json(200, {
      error_code: 0,
      error_message: "",
      data: {
        setttings: {
          features: {
            socket: {
              rotate_error_codes: [1006, 3000, 3003],
              retries: { "1006": { max: 5, times: [3000, 6000] }, "3000": { max: 1, times: 5000 } },
              debug: { enable: false },
              ping_interval: options.pingIntervalMs(),
              reset_endpoint: 60000,
              close_and_retry_codes: [1006, 1000, 3000, 3003],
              max_msg_size: 100000,
              enable_ctrl_socket: true,
              reconnect_after_fallback: true,
              enable_chat_socket: true,
              submit_wss_log: false,
              disable_lp: true,
              offline_monitor: { enable: false },
            },
            sharefile: {
              big_file_domain_list: [],
              max_size_share_file_v2: 1024,
              file_upload_show_icon_1GB: true,
              restricted_ext: "",
              next_file_time: 0,
              max_size_photo: 10,
              max_size_share_file: 1024,
              max_size_resize_photo: 10,
              max_size_gif: 10,
              ...options.sharefile(),
            },
          },
          keepalive: { alway_keepalive: 1, keepalive_duration: 60, time_deactive: 600 },
        },
        extra_ver: {
          phonebook: 0,
          conv_label: "0",
          friend: "0",
          ver_sticker_giphy_suggest: 0,
          ver_giphy_cate: 0,
          alias: "0",
          block_friend: "0",
        },
      },
    });
  });
}
