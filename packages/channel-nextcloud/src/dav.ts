import { randomBytes } from "node:crypto";
import type { Redactor } from "@chorus/channel-kit";
import { anySignal } from "@chorus/channel-kit";
import { ChorusError, formatBytes, type OutboundMedium } from "@chorus/core";
import type { NextcloudConfig, NextcloudFilesConfig } from "./config.js";

/** The slowest upload a request allows for, bytes per second: 512 MB get about 35 minutes on top of `timeoutMs`. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;
/** Numbered names tried (`chart (2).png` …) before a random one, when a name is taken. */
const NUMBERED_NAMES = 20;

/** What the WebDAV client needs. */
export interface DavOptions {
  config: Pick<NextcloudConfig, "baseUrl" | "timeoutMs">;
  files: NextcloudFilesConfig;
  /** The instance's lifetime. */
  signal: AbortSignal;
  redactor: Redactor;
}

/**
 * The bot's files over Nextcloud's WebDAV (`/remote.php/dav`, nextcloud/documentation
 * developer_manual/client_apis/WebDAV/basic.rst and search.rst) with the files user's app password
 * (Basic auth): uploads that never overwrite, and finding a shared file by its id.
 */
export class NextcloudDav {
  /** `Basic base64(user:appPassword)`; a secret, known to the redactor. */
  readonly authorization: string;
  /** The path every file of the user lives under, on the server's origin (`/remote.php/dav/files/<user>`). */
  readonly root: string;
  readonly #base: URL;

  constructor(private readonly options: DavOptions) {
    const { user, appPassword } = options.files;
    this.authorization = `Basic ${Buffer.from(`${user}:${appPassword}`).toString("base64")}`;
    options.redactor.add(this.authorization.slice("Basic ".length));
    this.#base = new URL(options.config.baseUrl.replace(/\/*$/u, "/"));
    this.root = `${this.#base.pathname}remote.php/dav/files/${encodeURIComponent(user)}`;
  }

  /** The server's origin: the only one the app password is sent to. */
  get origin(): string {
    return this.#base.origin;
  }

  /**
   * Uploads `medium` into the files folder under its own name, streamed (`PUT` with its exact
   * Content-Length). `If-None-Match: *` keeps an existing file from being overwritten: a taken name
   * (412) is tried again as `name (2).ext` …; a missing folder (409) is created (`MKCOL`) once.
   * Resolves with the path below the user's root (`Talk/chart.png`).
   */
  async upload(medium: OutboundMedium): Promise<string> {
    const folder = this.options.files.folder.replace(/^\/+|\/+$/gu, "");
    const name = safeName(medium.filename);
    let created = false;
    for (let attempt = 1; attempt <= NUMBERED_NAMES + 1; attempt++) {
      const candidate = attempt > NUMBERED_NAMES ? randomName(name) : attempt === 1 ? name : numbered(name, attempt);
      const path = `${folder}/${candidate}`;
      const status = await this.#put(path, medium);
      if (status === 201 || status === 204) return path;
      if (status === 412) continue;
      if (status === 409 && !created) {
        await this.#mkcolAll(folder);
        created = true;
        attempt--;
        continue;
      }
      throw this.#refusal(status, `upload "${medium.filename}"`, medium);
    }
    throw new ChorusError("E_PLATFORM", `Nextcloud kept refusing a name for "${medium.filename}" in ${folder}.`, {
      retryable: false,
    });
  }

  /**
   * Where the user finds the file `fileId` (WebDAV `SEARCH` on `oc:fileid`, search.rst: "Nextcloud
   * file id … Searchable"): the `href` of a file under the user's root, or undefined when the user
   * cannot see it (not a participant of the conversation it was shared in, or it is gone).
   */
  async find(fileId: string, signal?: AbortSignal): Promise<string | undefined> {
    const response = await this.#request(
      "SEARCH",
      `${this.#base.pathname}remote.php/dav/`,
      {
        headers: { "content-type": "text/xml; charset=utf-8" },
        body: searchBody(this.options.files.user, fileId),
      },
      this.options.config.timeoutMs,
      signal,
    );
    const text = await response.text();
    if (response.status !== 207) throw this.#refusal(response.status, `find shared file ${fileId}`);
    return hrefsOf(text).find((href) => href.startsWith(`${this.root}/`) && !href.endsWith("/"));
  }

  async #put(path: string, medium: OutboundMedium): Promise<number> {
    const allowance = Math.ceil(medium.size / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000;
    const response = await this.#request(
      "PUT",
      `${this.root}/${encodePath(path)}`,
      {
        headers: {
          "content-type": medium.mime,
          "content-length": String(medium.size),
          "if-none-match": "*",
        },
        body: medium.open(),
        // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
        redirect: "error",
        duplex: "half",
      },
      this.options.config.timeoutMs + allowance,
    );
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  }

  /** Creates `folder` and its parents (`MKCOL`; 405 means it exists). */
  async #mkcolAll(folder: string): Promise<void> {
    const parts = folder.split("/").filter(Boolean);
    for (let depth = 1; depth <= parts.length; depth++) {
      const path = parts.slice(0, depth).join("/");
      const response = await this.#request(
        "MKCOL",
        `${this.root}/${encodePath(path)}`,
        {},
        this.options.config.timeoutMs,
      );
      await response.body?.cancel().catch(() => undefined);
      if (response.status !== 201 && response.status !== 405) throw this.#refusal(response.status, `create ${path}`);
    }
  }

  async #request(
    method: string,
    path: string,
    init: RequestInit & { duplex?: "half" },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Response> {
    const url = new URL(path, this.#base.origin);
    const signals = [this.options.signal, AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    try {
      return await fetch(url, {
        ...init,
        method,
        headers: { ...(init.headers as Record<string, string>), authorization: this.authorization },
        signal: anySignal(signals),
      } as RequestInit);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      const why = typeof cause === "string" ? cause : error instanceof Error ? error.name : "network error";
      throw new ChorusError("E_PLATFORM", `Nextcloud did not answer (${method} of the bot's files): ${why}.`, {
        retryable: true,
      });
    }
  }

  /** WebDAV's refusals in Nextcloud's terms (sabre/dav statuses; 413 from the web server in front). */
  #refusal(status: number, operation: string, medium?: OutboundMedium): ChorusError {
    const user = this.options.files.user;
    const facts = { details: { status } };
    if (status === 401 || status === 403) {
      return new ChorusError(
        "E_AUTH",
        `Nextcloud refused the files login of "${user}" (${operation}, HTTP ${status}).`,
        {
          ...facts,
          hint: "Check channels.nextcloud.files.user and files.appPassword (an app password of that user).",
        },
      );
    }
    if (status === 413) {
      const size = medium ? ` (${formatBytes(medium.size)})` : "";
      return new ChorusError(
        "E_TOO_LARGE",
        `Nextcloud refused to ${operation}${size}: too large for the server (HTTP 413).`,
        {
          ...facts,
          hint: "Raise the server's upload limit, or set channels.nextcloud.files.maxUploadBytes to it.",
        },
      );
    }
    if (status === 507) {
      return new ChorusError(
        "E_PLATFORM",
        `Nextcloud refused to ${operation}: "${user}" has no storage left (HTTP 507).`,
        {
          ...facts,
          retryable: false,
          hint: `Free space in the files of "${user}" or raise its quota.`,
        },
      );
    }
    return new ChorusError("E_PLATFORM", `Nextcloud refused to ${operation} (HTTP ${status}).`, {
      ...facts,
      retryable: status >= 500 || status === 423,
    });
  }
}

/** A medium's name as a single path segment: no slashes, no control characters, never empty. */
export function safeName(filename: string): string {
  const cleaned = filename
    .replace(/[\p{Cc}/\\]/gu, "_")
    .replace(/^\.+/u, "")
    .trim();
  return cleaned === "" ? "file" : cleaned;
}

/** `chart.png` → `chart (2).png`, as Nextcloud's own clients name a copy. */
function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

function randomName(name: string): string {
  return numbered(name, Number.parseInt(randomBytes(4).toString("hex"), 16));
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

function xmlText(text: string): string {
  return text.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");
}

/** The `basicsearch` for one file id in the user's tree (search.rst, "Making search requests"). */
function searchBody(user: string, fileId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<d:searchrequest xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">
  <d:basicsearch>
    <d:select><d:prop><oc:fileid/><d:getcontenttype/><d:getcontentlength/></d:prop></d:select>
    <d:from><d:scope><d:href>/files/${xmlText(user)}</d:href><d:depth>infinity</d:depth></d:scope></d:from>
    <d:where><d:eq><d:prop><oc:fileid/></d:prop><d:literal>${xmlText(fileId)}</d:literal></d:eq></d:where>
    <d:orderby/>
  </d:basicsearch>
</d:searchrequest>`;
}

/** The decoded `href`s of a multistatus answer, whatever prefix it gives the `DAV:` namespace. */
function hrefsOf(xml: string): string[] {
  const hrefs: string[] = [];
  for (const match of xml.matchAll(/<(?:[\w-]+:)?href>([^<]*)<\/(?:[\w-]+:)?href>/gu)) {
    const raw = (match[1] ?? "").replace(/&amp;/gu, "&").trim();
    try {
      const path = raw.startsWith("http") ? new URL(raw).pathname : raw;
      hrefs.push(path.split("/").map(decodeURIComponent).map(encodeURIComponent).join("/"));
    } catch {
      // An href that is not a path is no file the bot can fetch.
    }
  }
  return hrefs;
}
