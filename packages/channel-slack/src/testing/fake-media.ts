import type { MediaKind } from "@chorus/core";
import type { PlatformMessageMedia } from "@chorus/testkit";
import { type FakeDownloadRedirect, FakeFileHosts } from "./fake-file-hosts.js";
import { type FakeFileSettings, fileMethods } from "./fake-file-methods.js";
import { type FakeFile, type FakeFileInput, FakeFileStore } from "./fake-files.js";
import type { FakeMessage, FakeSlackState } from "./fake-state.js";
import type { FakeBot, Method } from "./fake-web-api.js";

const GB = 1024 * 1024 * 1024;
/** The largest upload body the fake's file host reads (it holds uploads in memory): tests send small files. */
const MAX_UPLOAD_BODY = 256 * 1024 * 1024;

/** The workspace's sign-in page (`GET /` of the workspace), where Slack sends a download it does not accept. */
export const SIGN_IN_PAGE = {
  headers: { "content-type": "text/html; charset=utf-8" },
  body: "<!DOCTYPE html><html><head><title>Sign in | Slack</title></head><body>Sign in to Fake Workspace</body></html>",
};

/** The bot scopes the README's manifest asks for, plus the two files ones. */
export const FAKE_BOT_SCOPES = [
  "app_mentions:read",
  "channels:history",
  "channels:read",
  "chat:write",
  "files:read",
  "files:write",
  "groups:history",
  "groups:read",
  "im:history",
  "im:read",
  "mpim:history",
  "mpim:read",
  "reactions:read",
  "reactions:write",
  "users:read",
];

/** How the fake's files behave; every limit small enough to prove in a test. */
export interface FakeMediaOptions extends Partial<Omit<FakeFileSettings, "scopes">> {
  /** The bot token's scopes (default `FAKE_BOT_SCOPES`). */
  scopes?: readonly string[];
  /** What `files.slack.com` does with an allowed download (default: serve it). */
  downloadRedirect?: FakeDownloadRedirect;
}

/** A file someone shares: its bytes and name, and what kind of Slack file it is. */
export interface UserFile extends Omit<FakeFileInput, "user" | "uploaded" | "declaredLength"> {}

/** What the media side of the fake needs of the rest of it. */
export interface FakeMediaContext {
  readonly state: FakeSlackState;
  readonly bot: FakeBot;
  readonly team: { id: string; name: string };
  readonly botToken: string;
  readonly revoked: Set<string>;
  workspaceUrl(): string;
  onMessage(message: FakeMessage): void;
}

/**
 * The fake Slack's files: their storage, the file hosts, the files methods of the Web API, the
 * workspace's file settings (mutable: a test turns uploads off mid-way), and the platform's truth
 * about what a message carries.
 */
export class FakeSlackMedia {
  readonly settings: FakeFileSettings;
  readonly store: FakeFileStore;
  readonly hosts: FakeFileHosts;
  downloadRedirect: FakeDownloadRedirect;

  constructor(
    private readonly ctx: FakeMediaContext,
    options: FakeMediaOptions = {},
  ) {
    this.settings = {
      scopes: new Set(options.scopes ?? FAKE_BOT_SCOPES),
      uploadsDisabled: options.uploadsDisabled ?? false,
      uploadLimitBytes: options.uploadLimitBytes ?? GB,
      shareDelayMs: options.shareDelayMs ?? 0,
    };
    this.downloadRedirect = options.downloadRedirect ?? "none";
    this.store = new FakeFileStore({
      teamId: ctx.team.id,
      filesUrl: () => this.hosts.host.url,
      workspaceUrl: () => ctx.workspaceUrl(),
    });
    this.hosts = new FakeFileHosts({
      store: this.store,
      mayRead: (authorization) => this.#mayRead(authorization),
      workspaceUrl: () => ctx.workspaceUrl(),
      maxUploadBytes: Math.min(this.settings.uploadLimitBytes, MAX_UPLOAD_BODY) + 64 * 1024,
      redirect: () => this.downloadRedirect,
    });
  }

  /** `files.getUploadURLExternal`, `files.completeUploadExternal`, `files.info`. */
  methods(): Record<string, Method> {
    const { state, bot, team } = this.ctx;
    const onMessage = (message: FakeMessage) => this.ctx.onMessage(message);
    return fileMethods({ state, bot, team, store: this.store, hosts: this.hosts, settings: this.settings, onMessage });
  }

  /** The origins the plugin may send the token to: `fileHosts`. */
  get fileHosts(): string[] {
    return [this.hosts.host.url, this.hosts.origin.url];
  }

  /** Bytes the file hosts served for downloads so far. */
  get bytesServed(): number {
    return this.hosts.bytesServed;
  }

  /** Stores what `user` shares; the file objects their message carries. */
  filesOf(user: string, files: readonly UserFile[]): Record<string, unknown>[] {
    return files.map((file) => this.store.object(this.store.add({ ...file, user })));
  }

  /** A Slack Connect event's stub of a file object a message carries. */
  stubOf(object: unknown): Record<string, unknown> {
    const file = this.file(object);
    return file ? this.store.stub(file) : (object as Record<string, unknown>);
  }

  /** The stored file behind a file object a message carries. */
  file(object: unknown): FakeFile | undefined {
    return this.store.get(String((object as { id?: unknown } | null)?.id ?? ""));
  }

  /** A message as the platform holds it, media-wise (the contract's `sentMessage`). */
  messageMedia(message: FakeMessage | undefined): PlatformMessageMedia {
    if (!message) return { media: [] };
    const caption = message.text === "" ? undefined : message.text;
    const media = (message.files ?? []).flatMap((object) => {
      const file = this.file(object);
      if (!file) return [];
      return [{ kind: kindOf(file), bytes: file.bytes, filename: file.name, ...(caption ? { caption } : {}) }];
    });
    return { media, ...(caption ? { text: caption } : {}) };
  }

  start(): Promise<void> {
    return this.hosts.start();
  }

  close(): Promise<void> {
    return this.hosts.close();
  }

  #mayRead(authorization: string | undefined): boolean {
    const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
    return token === this.ctx.botToken && !this.ctx.revoked.has(token) && this.settings.scopes.has("files:read");
  }
}

/** How Slack shows a file, in core's kinds. */
function kindOf(file: FakeFile): MediaKind {
  if (file.subtype === "slack_audio") return "voice";
  if (file.mimetype.startsWith("image/")) return "image";
  if (file.mimetype.startsWith("video/")) return "video";
  if (file.mimetype.startsWith("audio/")) return "audio";
  return "file";
}
