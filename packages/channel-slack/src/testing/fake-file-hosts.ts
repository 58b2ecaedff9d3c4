import { randomBytes } from "node:crypto";
import {
  createFakeServer,
  type FakeResponse,
  type FakeServer,
  mediumResponse,
  type RequestContext,
  text,
} from "@chorus/testkit";
import type { FakeFile, FakeFileStore } from "./fake-files.js";

/**
 * What `files.slack.com` does with a download the bot token may make: serve the bytes, or redirect
 * to `files-origin.slack.com`, which wants the token too (Enterprise Grid, as NousResearch/
 * hermes-agent#114483 recorded it), or to a CDN URL that is signed and wants none (the
 * `*.slack-edge.com` hop nextlevelbuilder/goclaw#233 describes).
 */
export type FakeDownloadRedirect = "none" | "origin" | "edge";

/** What the file hosts need of the rest of the fake. */
export interface FileHostsContext {
  readonly store: FakeFileStore;
  /** Whether this `Authorization` header may read files: the bot token, not revoked, with `files:read`. */
  mayRead(authorization: string | undefined): boolean;
  /** The workspace (`https://<team>.slack.com`), whose sign-in page takes whoever is not allowed. */
  workspaceUrl(): string;
  /** The largest body an upload URL takes. */
  readonly maxUploadBytes: number;
  redirect(): FakeDownloadRedirect;
}

/**
 * Slack's file hosts, each its own origin on 127.0.0.1: `host` (files.slack.com: downloads and the
 * upload URLs), `origin` (files-origin.slack.com) and `edge` (a CDN). A download without an
 * accepted token is redirected to the workspace's sign-in page (`302` to
 * `https://<team>.slack.com/?redir=%2Ffiles-pri%2F…`, which answers HTML, as slackapi/deno-slack-sdk#285
 * quotes it). Bytes go out in chunks (`mediumResponse`): a client that stops reading stops the
 * transfer, and `bytesServed` counts what really went out.
 */
export class FakeFileHosts {
  readonly host: FakeServer;
  readonly origin: FakeServer = createFakeServer();
  readonly edge: FakeServer = createFakeServer();
  /** Bytes of file downloads written so far, on every host. */
  bytesServed = 0;
  /** Signed CDN paths handed out by redirects. */
  readonly #signed = new Map<string, FakeFile>();

  constructor(private readonly ctx: FileHostsContext) {
    this.host = createFakeServer({ maxBodyBytes: ctx.maxUploadBytes });
  }

  async start(): Promise<void> {
    await Promise.all([this.host.start(), this.origin.start(), this.edge.start()]);
    for (const [server, role] of [
      [this.host, "host"],
      [this.origin, "origin"],
    ] as const) {
      server.route("GET", "/files-pri/:key/download/:name", (req) => this.#serve(req, role, true));
      server.route("GET", "/files-pri/:key/:name", (req) => this.#serve(req, role, false));
    }
    this.edge.route("GET", "/files/:token/:name", (req) => this.#serveSigned(req));
    this.host.route("POST", "/upload/v1/:ticket", (req) => this.#upload(req));
  }

  async close(): Promise<void> {
    await Promise.all([this.host.close(), this.origin.close(), this.edge.close()]);
  }

  /** Where an upload's bytes go (`upload_url` of `files.getUploadURLExternal`). */
  uploadUrl(file: FakeFile): string {
    return `${this.host.url}/upload/v1/${ticketOf(file)}`;
  }

  #serve(req: RequestContext, role: "host" | "origin", download: boolean): FakeResponse {
    const file = this.ctx.store.byKey(req.params.key ?? "");
    if (!this.ctx.mayRead(req.headers.authorization)) {
      const location = `${this.ctx.workspaceUrl()}/?redir=${encodeURIComponent(req.path)}`;
      return {
        status: 302,
        headers: { location, "content-type": "text/html" },
        body: `<a href="${location}">Found</a>.`,
      };
    }
    if (file?.mode !== "hosted" || file.accessDenied || !file.uploaded) return text(404, "Not Found");
    const redirect = this.ctx.redirect();
    if (role === "host" && redirect === "origin") {
      return { status: 302, headers: { location: `${this.origin.url}${req.path}` } };
    }
    if (role === "host" && redirect === "edge") {
      const token = randomBytes(12).toString("hex");
      this.#signed.set(token, file);
      return { status: 302, headers: { location: `${this.edge.url}/files/${token}/${encodeURIComponent(file.name)}` } };
    }
    return this.#bytes(file, download);
  }

  #serveSigned(req: RequestContext): FakeResponse {
    const file = this.#signed.get(req.params.token ?? "");
    return file ? this.#bytes(file, true) : text(403, "Forbidden");
  }

  #bytes(file: FakeFile, download: boolean): FakeResponse {
    return mediumResponse(file.bytes, {
      headers: {
        "content-type": file.mimetype,
        ...(download ? { "content-disposition": `attachment; filename="${file.name.replace(/"/g, "")}"` } : {}),
      },
      served: (bytes) => {
        this.bytesServed += bytes;
      },
    });
  }

  /**
   * An upload URL: "sending the raw bytes, or … a multipart form" ("Working with files"); answers
   * 200 `OK - <bytes>`. A ticket that is unknown, used, or whose file was completed is answered 404.
   */
  async #upload(req: RequestContext): Promise<FakeResponse> {
    const file = this.ctx.store.get(fileIdOf(req.params.ticket ?? ""));
    if (!file || file.completed) return text(404, "Not Found");
    const type = String(req.headers["content-type"] ?? "");
    let bytes: Uint8Array = new Uint8Array(req.rawBody);
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(req.rawBody, { headers: { "content-type": type } }).formData();
      const part = [...form.values()].find((value) => typeof value !== "string");
      if (part === undefined || typeof part === "string") return text(400, "no file in the form");
      bytes = new Uint8Array(await part.arrayBuffer());
    }
    file.bytes = bytes;
    file.uploaded = true;
    return text(200, `OK - ${bytes.byteLength}`);
  }
}

/** An upload ticket: opaque to the app, like Slack's `upload/v1/CwABAAAA…`. */
function ticketOf(file: FakeFile): string {
  return Buffer.from(`ticket:${file.id}`).toString("base64url");
}

function fileIdOf(ticket: string): string {
  const decoded = Buffer.from(ticket, "base64url").toString("utf8");
  return decoded.startsWith("ticket:") ? decoded.slice("ticket:".length) : "";
}
