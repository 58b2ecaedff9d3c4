import { randomBytes } from "node:crypto";

/** One share of a file into a conversation, as the file object's `shares` lists it. */
export interface FakeShare {
  ts: string;
  thread_ts?: string;
  channel_name?: string;
  team_id: string;
}

/** A file the fake holds: its bytes and what Slack's file object says of it. */
export interface FakeFile {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  mimetype: string;
  filetype: string;
  bytes: Uint8Array;
  readonly user: string;
  readonly created: number;
  /** `slack_audio` (a clip recorded in Slack) or `slack_video`. */
  readonly subtype?: string;
  readonly durationMs?: number;
  /** `hosted`; `tombstone` once deleted; `hidden_by_limit` on a free plan past its limit; `external` (Google Drive …). */
  mode: "hosted" | "tombstone" | "hidden_by_limit" | "external";
  readonly externalType?: string;
  /** Shared with the bot's workspace but not readable by it (`file_access: "access_denied"`). */
  readonly accessDenied?: boolean;
  /** Its bytes arrived (a file announced with `files.getUploadURLExternal` has none until they do). */
  uploaded: boolean;
  /** The `length` announced with `files.getUploadURLExternal`. */
  readonly declaredLength?: number;
  /** Whether `files.completeUploadExternal` finished it. */
  completed: boolean;
  readonly shares: { public: Record<string, FakeShare[]>; private: Record<string, FakeShare[]> };
}

/** What a person's or the bot's file is made of. */
export interface FakeFileInput {
  name: string;
  bytes?: Uint8Array;
  /** Slack's `mimetype`; by default from the name's extension, as Slack types files. */
  mimetype?: string;
  user: string;
  subtype?: "slack_audio" | "slack_video";
  durationMs?: number;
  mode?: FakeFile["mode"];
  externalType?: string;
  accessDenied?: boolean;
  uploaded?: boolean;
  declaredLength?: number;
}

/** Slack's `filetype` and the media type of each extension the tests use (file object docs, "File types"). */
const TYPES: Record<string, [filetype: string, mimetype: string]> = {
  png: ["png", "image/png"],
  jpg: ["jpg", "image/jpeg"],
  jpeg: ["jpg", "image/jpeg"],
  gif: ["gif", "image/gif"],
  webp: ["webp", "image/webp"],
  mp4: ["mp4", "video/mp4"],
  mov: ["mov", "video/quicktime"],
  webm: ["webm", "audio/webm"],
  mp3: ["mp3", "audio/mpeg"],
  m4a: ["m4a", "audio/mp4"],
  ogg: ["ogg", "audio/ogg"],
  wav: ["wav", "audio/wav"],
  pdf: ["pdf", "application/pdf"],
  txt: ["text", "text/plain"],
  html: ["html", "text/html"],
  zip: ["zip", "application/zip"],
};

/** The `filetype` and `mimetype` Slack gives a file of this name. */
export function typeOf(name: string): { filetype: string; mimetype: string } {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const [filetype, mimetype] = TYPES[extension] ?? ["binary", "application/octet-stream"];
  return { filetype, mimetype };
}

/**
 * The fake's file storage and Slack's file object (https://api.slack.com/types/file): ids like
 * `F0…`, `url_private` / `url_private_download` on the file host (`files-pri/<team>-<id>/…`),
 * `permalink` on the workspace, `original_w`/`original_h` left out (the fake does not decode
 * images), `shares` once a file was shared.
 */
export class FakeFileStore {
  readonly #files = new Map<string, FakeFile>();
  #next = 0;

  constructor(private readonly where: { teamId: string; filesUrl(): string; workspaceUrl(): string }) {}

  add(input: FakeFileInput): FakeFile {
    const types = typeOf(input.name);
    const file: FakeFile = {
      id: `F0FAKE${String(++this.#next).padStart(4, "0")}${randomBytes(2).toString("hex").toUpperCase()}`,
      name: input.name,
      title: input.name,
      mimetype: input.mimetype ?? types.mimetype,
      filetype: types.filetype,
      bytes: input.bytes ?? new Uint8Array(),
      user: input.user,
      created: Math.floor(Date.now() / 1000),
      ...(input.subtype ? { subtype: input.subtype } : {}),
      ...(input.durationMs !== undefined ? { durationMs: input.durationMs } : {}),
      mode: input.mode ?? "hosted",
      ...(input.externalType ? { externalType: input.externalType } : {}),
      ...(input.accessDenied ? { accessDenied: true } : {}),
      uploaded: input.uploaded ?? true,
      ...(input.declaredLength !== undefined ? { declaredLength: input.declaredLength } : {}),
      completed: input.uploaded ?? true,
      shares: { public: {}, private: {} },
    };
    this.#files.set(file.id, file);
    return file;
  }

  get(id: string): FakeFile | undefined {
    return this.#files.get(id);
  }

  /** The file behind a `files-pri/<team>-<id>` path segment. */
  byKey(key: string): FakeFile | undefined {
    const prefix = `${this.where.teamId}-`;
    return key.startsWith(prefix) ? this.#files.get(key.slice(prefix.length)) : undefined;
  }

  /** The path of its bytes on the file host: `url_private`'s, or `url_private_download`'s. */
  path(file: FakeFile, download: boolean): string {
    const name = encodeURIComponent(file.name.toLowerCase());
    return `/files-pri/${this.where.teamId}-${file.id}/${download ? "download/" : ""}${name}`;
  }

  /** Slack's file object, as events and `files.info` carry it. */
  object(file: FakeFile, withShares = false): Record<string, unknown> {
    if (file.mode === "tombstone") return { id: file.id, mode: "tombstone" };
    if (file.mode === "hidden_by_limit") return { id: file.id, mode: "hidden_by_limit" };
    if (file.accessDenied) return { id: file.id, file_access: "access_denied", created: 0, timestamp: 0, user: "" };
    const external = file.mode === "external";
    const files = this.where.filesUrl();
    return {
      id: file.id,
      created: file.created,
      timestamp: file.created,
      name: file.name,
      title: file.title,
      mimetype: file.mimetype,
      filetype: file.filetype,
      pretty_type: file.filetype.toUpperCase(),
      user: file.user,
      user_team: this.where.teamId,
      editable: false,
      size: file.bytes.byteLength,
      mode: file.mode,
      is_external: external,
      external_type: file.externalType ?? "",
      is_public: false,
      public_url_shared: false,
      display_as_bot: false,
      username: "",
      ...(file.subtype ? { subtype: file.subtype } : {}),
      ...(file.subtype === "slack_audio" ? { media_display_type: "audio" } : {}),
      ...(file.durationMs !== undefined ? { duration_ms: file.durationMs } : {}),
      url_private: external ? `https://drive.example.com/${file.id}` : `${files}${this.path(file, false)}`,
      ...(external ? {} : { url_private_download: `${files}${this.path(file, true)}` }),
      permalink: `${this.where.workspaceUrl()}/files/${file.user}/${file.id}/${encodeURIComponent(file.name)}`,
      ...(withShares ? { shares: file.shares } : {}),
      has_rich_preview: false,
    };
  }

  /** A Slack Connect event's stub ("Slack Connect files", file object docs). */
  stub(file: FakeFile): Record<string, unknown> {
    return { id: file.id, mode: "file_access", file_access: "check_file_info", created: 0, timestamp: 0, user: "" };
  }
}
