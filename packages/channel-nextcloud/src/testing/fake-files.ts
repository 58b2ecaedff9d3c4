import { createHash } from "node:crypto";

/** A Nextcloud account that can log in with an app password (WebDAV, OCS). */
export interface FakeAccount {
  id: string;
  displayName: string;
  appPassword: string;
}

/** A file in someone's files, as the server stores it. */
export interface FakeFile {
  /** The file id (`oc:fileid`), the same for everyone it is shared with. */
  id: number;
  owner: string;
  /** Its path below the owner's root (`Talk/chart.png`). */
  path: string;
  bytes: Uint8Array;
  /** Detected from the name, as Nextcloud does (`IMimeTypeDetector::detectPath`). */
  mimetype: string;
  etag: string;
}

/** A share of a file with a conversation (`shareType` 10). */
export interface FakeShare {
  id: number;
  fileId: number;
  owner: string;
  /** The conversation's token. */
  token: string;
}

/**
 * Types by extension, a few of server `resources/config/mimetypemapping.dist.json`: Nextcloud types
 * a file by its name, not by the Content-Type it was uploaded with.
 */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  pdf: "application/pdf",
  txt: "text/plain",
  vcf: "text/vcard",
};

/** The type Nextcloud gives a file of this name. */
export function mimetypeOf(name: string): string {
  const extension = name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "";
  return MIME_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/** People's files, folders and shares with conversations, and the only code that changes them. */
export class FakeFiles {
  readonly accounts = new Map<string, FakeAccount>();
  readonly files = new Map<number, FakeFile>();
  readonly shares: FakeShare[] = [];
  /** Folders per user (paths below the root, `""` being the root). */
  readonly #folders = new Map<string, Set<string>>();
  #nextFile = 40_000;
  #nextShare = 700;

  addAccount(account: FakeAccount, folders: readonly string[] = []): FakeAccount {
    this.accounts.set(account.id, account);
    this.#folders.set(account.id, new Set(["", ...folders]));
    return account;
  }

  /** The account a `Basic` authorization names, when its app password matches. */
  login(authorization: string | undefined): FakeAccount | undefined {
    const encoded = /^Basic (.+)$/iu.exec(authorization ?? "")?.[1];
    if (!encoded) return undefined;
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const account = this.accounts.get(decoded.slice(0, colon));
    return account && colon > 0 && decoded.slice(colon + 1) === account.appPassword ? account : undefined;
  }

  hasFolder(user: string, path: string): boolean {
    return this.#folders.get(user)?.has(path) ?? false;
  }

  addFolder(user: string, path: string): void {
    const folders = this.#folders.get(user) ?? new Set([""]);
    folders.add(path);
    this.#folders.set(user, folders);
  }

  /** `path`, or `name (2).ext` … when `owner` already has a file there (as Talk's clients name an upload). */
  freePath(owner: string, path: string): string {
    const taken = (p: string) => [...this.files.values()].some((f) => f.owner === owner && f.path === p);
    let free = path;
    for (let n = 2; taken(free); n++) free = path.replace(/(\.[^./]*)?$/u, ` (${n})$1`);
    return free;
  }

  /** Replaces the bytes of a file (a `PUT` over it), keeping its id. */
  overwrite(file: FakeFile, bytes: Uint8Array): void {
    file.bytes = bytes.slice();
    file.etag = createHash("md5").update(bytes).digest("hex");
  }

  /** Stores a new file at `path` of `owner`'s files. */
  store(owner: string, path: string, bytes: Uint8Array): FakeFile {
    const id = this.#nextFile++;
    const name = path.split("/").pop() ?? path;
    const etag = createHash("md5").update(bytes).digest("hex");
    const file: FakeFile = { id, owner, path, bytes: bytes.slice(), mimetype: mimetypeOf(name), etag };
    this.files.set(id, file);
    return file;
  }

  share(fileId: number, owner: string, token: string): FakeShare {
    const share: FakeShare = { id: this.#nextShare++, fileId, owner, token };
    this.shares.push(share);
    return share;
  }

  /**
   * The files `user` sees, by path: their own, and every file shared with a conversation they are
   * in, mounted in their Talk folder (`RoomShareProvider::TALK_FOLDER`), numbered when the name is taken.
   */
  visibleTo(user: string, tokens: readonly string[]): Map<string, FakeFile> {
    const seen = new Map<string, FakeFile>();
    for (const file of this.files.values()) if (file.owner === user) seen.set(file.path, file);
    for (const share of this.shares) {
      const file = this.files.get(share.fileId);
      if (!file || file.owner === user || !tokens.includes(share.token)) continue;
      if ([...seen.values()].includes(file)) continue;
      const name = file.path.split("/").pop() ?? file.path;
      let path = `Talk/${name}`;
      for (let n = 2; seen.has(path); n++) path = `Talk/${name.replace(/(\.[^.]*)?$/u, ` (${n})$1`)}`;
      seen.set(path, file);
    }
    return seen;
  }
}
