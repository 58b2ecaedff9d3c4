import { type FakeResponse, type FakeServer, mediumResponse, type RequestContext } from "@chorus/testkit";
import type { FakeAccount } from "./fake-files.js";
import type { FakeTalkState } from "./fake-state.js";

/** Where a user's files are (`/remote.php/dav/files/<user>/<path>`, WebDAV basic.rst). */
const FILES = "/remote.php/dav/files/:user/*";

type Ctx = RequestContext<undefined>;

/** A sabre/dav error body, as Nextcloud answers every WebDAV refusal. */
function davError(
  status: number,
  exception: string,
  message: string,
  headers: Record<string, string> = {},
): FakeResponse {
  const body = `<?xml version="1.0" encoding="utf-8"?>
<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">
  <s:exception>Sabre\\DAV\\Exception\\${exception}</s:exception>
  <s:message>${message}</s:message>
</d:error>
`;
  return { status, headers: { "content-type": "application/xml; charset=utf-8", ...headers }, body };
}

/** 401 as Nextcloud answers a WebDAV request without valid credentials. */
const notAuthenticated = () =>
  davError(401, "NotAuthenticated", "No public access to this resource., Username or password was incorrect", {
    "www-authenticate": 'Basic realm="Nextcloud", charset="UTF-8"',
  });

/** What the routes count, for the download-cap checks. */
export interface DavCounters {
  served: number;
}

/**
 * Nextcloud's WebDAV for the fake (nextcloud/documentation developer_manual/client_apis/WebDAV:
 * basic.rst for PUT/MKCOL/GET, search.rst for SEARCH; statuses of sabre/dav): Basic auth with an
 * app password, a user's own tree only, conditional uploads (`If-None-Match: *` → 412 on a taken
 * name), 409 for a missing parent folder, downloads served in chunks and counted.
 */
export function registerDav(server: FakeServer, state: FakeTalkState, counters: DavCounters): void {
  const { files } = state;
  /** The logged-in account, when it is the owner of the tree the path names. */
  const owner = (ctx: Ctx): FakeAccount | FakeResponse => {
    const account = files.login(ctx.headers.authorization);
    if (!account) return notAuthenticated();
    if (ctx.params.user !== account.id) return davError(403, "Forbidden", "Access denied");
    return account;
  };
  const pathOf = (ctx: Ctx) => (ctx.params["*"] ?? "").replace(/^\/+|\/+$/gu, "");
  const parentOf = (path: string) => path.split("/").slice(0, -1).join("/");

  server.route("PUT", FILES, (ctx) => {
    const account = owner(ctx);
    if (!("id" in account)) return account;
    const path = pathOf(ctx);
    if (!files.hasFolder(account.id, parentOf(path))) {
      return davError(409, "Conflict", "Files cannot be created in non-existent collections");
    }
    const existing = files.visibleTo(account.id, state.roomsOf(account.id)).get(path);
    if (ctx.headers["if-none-match"] === "*" && (existing || files.hasFolder(account.id, path))) {
      return davError(
        412,
        "PreconditionFailed",
        "An If-None-Match header was specified, but the ETag matched (or * was specified).",
      );
    }
    // Without the condition a PUT replaces the file's content: 204, the same file id.
    if (existing) files.overwrite(existing, new Uint8Array(ctx.rawBody));
    const file = existing ?? files.store(account.id, path, new Uint8Array(ctx.rawBody));
    const headers = { "oc-fileid": String(file.id), etag: `"${file.etag}"`, "oc-etag": `"${file.etag}"` };
    return { status: existing ? 204 : 201, headers };
  });

  server.route("MKCOL", FILES, (ctx) => {
    const account = owner(ctx);
    if (!("id" in account)) return account;
    const path = pathOf(ctx);
    if (files.hasFolder(account.id, path)) {
      return davError(405, "MethodNotAllowed", "The resource you tried to create already exists");
    }
    if (!files.hasFolder(account.id, parentOf(path))) {
      return davError(409, "Conflict", "Parent node does not exist");
    }
    files.addFolder(account.id, path);
    return { status: 201 };
  });

  server.route("GET", FILES, (ctx) => {
    const account = owner(ctx);
    if (!("id" in account)) return account;
    const file = files.visibleTo(account.id, state.roomsOf(account.id)).get(pathOf(ctx));
    if (!file) return davError(404, "NotFound", "File not found");
    return mediumResponse(file.bytes, {
      headers: { "content-type": file.mimetype, etag: `"${file.etag}"`, "oc-etag": `"${file.etag}"` },
      served: (bytes) => {
        counters.served += bytes;
      },
    });
  });

  // SEARCH (rfc5323) for `oc:fileid` in the user's own scope; the only query the plugin makes.
  server.route("SEARCH", "/remote.php/dav/", (ctx) => {
    const account = files.login(ctx.headers.authorization);
    if (!account) return notAuthenticated();
    const body = ctx.text();
    const scope = /<d:href>\/files\/([^<]+)<\/d:href>/u.exec(body)?.[1];
    const fileId = /<d:eq>\s*<d:prop>\s*<oc:fileid\s*\/>\s*<\/d:prop>\s*<d:literal>(\d+)<\/d:literal>/u.exec(body)?.[1];
    if (scope === undefined || fileId === undefined) return davError(400, "BadRequest", "Invalid search query");
    if (scope !== account.id) return davError(403, "Forbidden", "Access denied");
    const found = [...files.visibleTo(account.id, state.roomsOf(account.id))].filter(
      ([, file]) => file.id === Number(fileId),
    );
    const responses = found.map(([path, file]) => {
      const href = `/remote.php/dav/files/${encodeURIComponent(account.id)}/${path.split("/").map(encodeURIComponent).join("/")}`;
      return `<d:response><d:href>${href}</d:href><d:propstat><d:prop><oc:fileid>${file.id}</oc:fileid><d:getcontenttype>${file.mimetype}</d:getcontenttype><d:getcontentlength>${file.bytes.byteLength}</d:getcontentlength></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    });
    return {
      status: 207,
      headers: { "content-type": "application/xml; charset=utf-8" },
      body: `<?xml version="1.0"?>\n<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">${responses.join("")}</d:multistatus>\n`,
    };
  });
}
