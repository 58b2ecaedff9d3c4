import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "@chorus/testkit";
import { WebSocket } from "ws";
import { ChunkBlobs, DbMediaStore, FileBlobs } from "../media/index.js";
import type { StateConfig } from "../state/index.js";
import { openTestState } from "../testing/index.js";
import type { ServerFrame } from "./protocol.js";

/** A temp directory removed by the returned cleanup. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `chorus-webchat-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The gateway's media store on a fresh state (SQLite with files, or `config`), as the gateway opens it for the webchat. */
export interface TestMediaStore {
  readonly store: DbMediaStore;
  /** The same database's media store as another gateway of a cluster opens it (another process's, on PostgreSQL). */
  another(): Promise<DbMediaStore>;
  /** Media rows in the store. */
  count(): Promise<number>;
  close(): Promise<void>;
}

/** A media store for the webchat's tests; `retentionMs` default a week, `now` the store's clock. */
export async function testMediaStore(
  options: { config?: StateConfig; retentionMs?: number; now?: () => number } = {},
): Promise<TestMediaStore> {
  const opened = await openTestState(options.config);
  const make = (db: typeof opened.state.db) =>
    new DbMediaStore(
      db,
      db.dialect === "postgres" ? new ChunkBlobs(db) : new FileBlobs(db, join(opened.home, "media", "blobs")),
      {
        retentionMs: options.retentionMs ?? 7 * 86_400_000,
        ...(options.now ? { now: options.now } : {}),
      },
    );
  return {
    store: make(opened.state.db),
    another: async () => make((await opened.reopen()).db),
    count: async () => Number((await opened.state.db.one<{ n: number }>("SELECT count(*) AS n FROM media"))?.n ?? 0),
    close: () => opened.close(),
  };
}

/** A node http server on 127.0.0.1 with a random port. */
export async function listen(handler?: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = handler ? createServer(handler) : createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0 };
}

/** Closes a server and every connection it still has. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

type FrameOf<T extends ServerFrame["type"]> = Extract<ServerFrame, { type: T }>;

/** A real `ws` client that records every frame the server sent. */
export class TestClient {
  readonly frames: ServerFrame[] = [];
  #seen = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => this.frames.push(JSON.parse(data.toString()) as ServerFrame));
  }

  /** Connects; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new TestClient(ws);
      ws.once("open", () => resolve(client));
      ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once("error", reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The next frame (after the ones already taken) of `type` that matches. */
  async next<T extends ServerFrame["type"]>(type: T, match: (frame: FrameOf<T>) => boolean = () => true) {
    const found = await waitFor(
      () => {
        for (let i = this.#seen; i < this.frames.length; i++) {
          const frame = this.frames[i] as ServerFrame;
          if (frame.type === type && match(frame as FrameOf<T>)) {
            this.#seen = i + 1;
            return frame as FrameOf<T>;
          }
        }
        return undefined;
      },
      { timeoutMs: 5000, message: `a ${type} frame` },
    );
    return found;
  }

  /** Every frame of `type` received so far. */
  all<T extends ServerFrame["type"]>(type: T): FrameOf<T>[] {
    return this.frames.filter((frame): frame is FrameOf<T> => frame.type === type);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.close();
    });
  }
}

/** What an upload over the webchat's routes answered: the medium's id, or the error with its status. */
export type UploadAnswer =
  | { ok: true; id: string; status: number }
  | { ok: false; status: number; error: { code: string; message: string } };

/**
 * Uploads `bytes` the way the page does: announced with `POST <hooks>/upload`, then sent in pieces
 * of `pieceBytes` with `PUT <hooks>/upload?id=&offset=`, each with the token as a bearer token.
 */
export async function uploadOverHttp(
  hooksUrl: string,
  token: string,
  file: { bytes: Uint8Array; filename: string; mime?: string; kind?: string },
  pieceBytes = 256 * 1024,
): Promise<UploadAnswer> {
  const base = `${hooksUrl}/hooks/webchat/upload`;
  const authorization = `Bearer ${token}`;
  const begun = await fetch(base, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({
      filename: file.filename,
      size: file.bytes.byteLength,
      ...(file.mime ? { mime: file.mime } : {}),
      ...(file.kind ? { kind: file.kind } : {}),
    }),
  });
  const announced = (await begun.json()) as { ok: boolean; id: string; error: { code: string; message: string } };
  if (!announced.ok) return { ok: false, status: begun.status, error: announced.error };
  for (let offset = 0; offset < file.bytes.byteLength; offset += pieceBytes) {
    const piece = file.bytes.subarray(offset, offset + pieceBytes);
    const sent = await fetch(`${base}?id=${announced.id}&offset=${offset}`, {
      method: "PUT",
      headers: { authorization, "content-type": "application/octet-stream" },
      body: piece,
    });
    const answer = (await sent.json()) as { ok: boolean; error: { code: string; message: string } };
    if (!answer.ok) return { ok: false, status: sent.status, error: answer.error };
  }
  return { ok: true, id: announced.id, status: begun.status };
}
