import { type FakeResponse, type FakeServer, json, type RequestContext } from "@chorus/testkit";
import { SHARE_API_PATH, SHARE_TYPE_ROOM } from "../uploads.js";
import { actorParameter, fileParameter } from "./fake-hooks.js";
import type { FakeTalkState } from "./fake-state.js";

type Ctx = RequestContext<undefined>;

/** An OCS v2 answer: the HTTP status is the OCS status. */
function ocs(status: number, data: unknown = null, message = ""): FakeResponse {
  const ok = status < 300;
  return json(status, { ocs: { meta: { status: ok ? "ok" : "failure", statuscode: status, message }, data } });
}

/** The fields of a request, sent as JSON or as a form. */
function fieldsOf(ctx: Ctx): Record<string, unknown> {
  return ctx.body !== null && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};
}

/**
 * `POST /ocs/v2.php/apps/files_sharing/api/v1/shares` with `shareType: 10` (spreed `docs/chat.md`,
 * "Share a file to the chat"), answered as the OCS Share API and spreed's `RoomShareProvider::create`
 * do: 404 "Wrong path…" for a path the user does not have, 404 "Conversation not found" for a
 * conversation the sharer is not in, 403 "Path is already shared with this room" for a repeat.
 * A share leaves the sharer's chat message with the file (`file_shared`, the request's
 * `referenceId`, `talkMetaData` caption, replyTo and messageType).
 */
export function registerShares(server: FakeServer, state: FakeTalkState): { loseNextAnswer(): void } {
  // The logged-in user (OCS Provisioning API, "Get current user"): what `chorus doctor` checks.
  server.route("GET", "/ocs/v2.php/cloud/user", (ctx) => {
    const account = state.files.login(ctx.headers.authorization);
    if (!account) return ocs(401, null, "Current user is not logged in");
    return ocs(200, { id: account.id, "display-name": account.displayName, enabled: true });
  });
  let loseNext = false;
  server.route("POST", SHARE_API_PATH, (ctx) => {
    const answer = share(ctx);
    if (!loseNext || (answer.status ?? 200) >= 300) return answer;
    loseNext = false;
    // The share is made; a proxy in front gave up waiting and answers in its place.
    return {
      status: 504,
      headers: { "content-type": "text/html" },
      body: "<html><body>504 Gateway Time-out</body></html>",
    };
  });
  return {
    loseNextAnswer: () => {
      loseNext = true;
    },
  };

  function share(ctx: Ctx): FakeResponse {
    const account = state.files.login(ctx.headers.authorization);
    if (!account) return ocs(401, null, "Current user is not logged in");
    const body = fieldsOf(ctx);
    if (Number(body.shareType) !== SHARE_TYPE_ROOM) return ocs(400, null, "Unknown share type");
    const path = String(body.path ?? "").replace(/^\/+/u, "");
    const file = [...state.files.files.values()].find((f) => f.owner === account.id && f.path === path);
    if (!file) return ocs(404, null, "Wrong path, file/folder does not exist");
    const token = String(body.shareWith ?? "");
    const room = state.rooms.get(token);
    if (!room?.participants.includes(account.id)) return ocs(404, null, "Conversation not found");
    if (state.files.shares.some((s) => s.fileId === file.id && s.token === token)) {
      return ocs(403, null, "Path is already shared with this room");
    }
    let meta: { caption?: unknown; replyTo?: unknown; messageType?: unknown } = {};
    if (body.talkMetaData !== undefined) {
      try {
        meta = JSON.parse(String(body.talkMetaData)) as typeof meta;
      } catch {
        return ocs(400, null, "Invalid talkMetaData");
      }
    }
    const replyTo = typeof meta.replyTo === "number" ? meta.replyTo : undefined;
    if (replyTo !== undefined && state.messages.get(replyTo)?.token !== token) return ocs(400, null, "Invalid reply");
    const share = state.files.share(file.id, account.id, token);
    const caption = typeof meta.caption === "string" && meta.caption !== "" ? meta.caption : undefined;
    state.postMessage({
      token,
      actorId: `users/${account.id}`,
      actorName: account.displayName,
      // `SystemMessage::parseMessage` for `file_shared`: the caption replaces `{file}`.
      message: caption ?? "{file}",
      parameters: { actor: actorParameter(account.id, account.displayName), file: fileParameter(file, server.url) },
      fileId: file.id,
      ...(caption !== undefined ? { caption } : {}),
      ...(replyTo !== undefined ? { replyTo } : {}),
      ...(typeof body.referenceId === "string" ? { referenceId: body.referenceId } : {}),
      ...(meta.messageType === "voice-message" ? { messageType: "voice-message" } : {}),
    });
    const name = file.path.split("/").pop() ?? file.path;
    return ocs(200, {
      id: String(share.id),
      share_type: SHARE_TYPE_ROOM,
      uid_owner: account.id,
      displayname_owner: account.displayName,
      permissions: 19,
      stime: Math.floor(Date.now() / 1000),
      parent: null,
      expiration: null,
      token: null,
      uid_file_owner: account.id,
      path: `/${file.path}`,
      item_type: "file",
      mimetype: file.mimetype,
      item_source: file.id,
      file_source: file.id,
      file_target: `/${name}`,
      share_with: token,
      share_with_displayname: room.name,
      mail_send: 0,
      hide_download: 0,
    });
  }
}
