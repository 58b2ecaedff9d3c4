import { randomBytes, randomInt } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { Socket } from "node:net";
import { mediumResponse } from "@chorus/testkit";
import { uploadToken } from "./media-crypto.js";
import { FAKE_MEDIA_TLS } from "./media-tls.js";
import type { Outage } from "./outage.js";

/** A medium the host holds: the encrypted bytes as uploaded. */
export interface HostedMedium {
  /** The path without its query (`/v/t62.7118-24/…_n.enc`): what a download is looked up by. */
  readonly path: string;
  /** The direct path a message carries, query included (`…?ccb=11-4&oh=…&oe=…&_nc_sid=5e03e0`). */
  readonly directPath: string;
  /** The upload's `/mms/<type>` (`image`, `video`, `audio`, `document`). */
  readonly mmsType: string;
  readonly enc: Buffer;
  /** Uploaded by the bot's socket over HTTP (as opposed to stored for a person's phone). */
  readonly byBot: boolean;
}

/** The largest upload the host takes by default: WhatsApp's 2 GB documents, plus padding and MAC. */
const DEFAULT_MAX_UPLOAD = 2048 * 1024 * 1024 + 32;

/** The CDN path prefix of each upload type, as direct paths of real messages show them. */
const PATH_PREFIX: Record<string, string> = {
  image: "/v/t62.7118-24",
  video: "/v/t62.7161-24",
  audio: "/v/t62.7114-24",
  document: "/v/t62.7119-24",
};

/**
 * The fake's media host: WhatsApp's media CDN (`mmg.whatsapp.net`, or the host `media_conn`
 * names) on 127.0.0.1 over HTTPS. It takes encrypted uploads at `POST /mms/<type>/<token>?auth=…`
 * with the auth of the current `media_conn` and the token being the upload's SHA-256, answers
 * `{ url, direct_path }`, and serves each stored medium at its direct path, counting what it
 * served. What it holds stays encrypted: reading a medium back takes the media key from its message.
 */
export class FakeMediaHost {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #media = new Map<string, HostedMedium>();
  #port: number | undefined;
  /** The auth `media_conn` hands out; an upload must carry it. */
  readonly auth = randomBytes(24).toString("base64");
  /** Bytes served to downloads so far. */
  served = 0;
  /** Uploads refused, with the status the host answered. */
  readonly refusals: { status: number; why: string }[] = [];

  constructor(
    private readonly outage: () => Outage | undefined,
    problem: (message: string, cause: unknown) => void,
    private readonly maxUploadBytes: number = DEFAULT_MAX_UPLOAD,
  ) {
    this.#server = createServer({ key: FAKE_MEDIA_TLS.key, cert: FAKE_MEDIA_TLS.cert }, (request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        problem("the media host failed to answer a request", error);
        response.destroy();
      });
    });
    this.#server.on("connection", (socket: Socket) => {
      this.#sockets.add(socket);
      socket.once("close", () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = this.#server.address();
    this.#port = typeof address === "object" && address ? address.port : undefined;
  }

  async close(): Promise<void> {
    if (!this.#server.listening) return;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** `127.0.0.1:<port>`: the `hostname` of the `media_conn` host (Baileys prefixes `https://`). */
  get hostname(): string {
    if (this.#port === undefined) throw new Error("the fake media host is not started");
    return `127.0.0.1:${this.#port}`;
  }

  /** Every medium held, oldest first. */
  get media(): HostedMedium[] {
    return [...this.#media.values()];
  }

  /** Stores an upload under a new direct path (a phone's upload, or one that came over HTTP). */
  store(enc: Buffer, mmsType: string, byBot = false): HostedMedium {
    const prefix = PATH_PREFIX[mmsType] ?? PATH_PREFIX.document;
    const path = `${prefix}/${digits(9)}_${digits(16)}_${digits(19)}_n.enc`;
    const signature = randomBytes(30).toString("base64url");
    const expires = (Math.floor(Date.now() / 1000) + 14 * 86_400).toString(16).toUpperCase();
    const directPath = `${path}?ccb=11-4&oh=01_${signature}&oe=${expires}&_nc_sid=5e03e0`;
    const medium = { path, directPath, mmsType, enc, byBot };
    this.#media.set(path, medium);
    return medium;
  }

  /** Holds `enc` under exactly this direct path (replacing what was there). */
  put(directPath: string, enc: Buffer, mmsType: string): HostedMedium {
    const path = directPath.split("?")[0] ?? directPath;
    const medium = { path, directPath, mmsType, enc, byBot: false };
    this.#media.set(path, medium);
    return medium;
  }

  /** The medium a direct path names, if the host still holds it. */
  find(directPath: string): HostedMedium | undefined {
    return this.#media.get(directPath.split("?")[0] ?? "");
  }

  /** Forgets a medium, as WhatsApp does once it expired: downloads get 404. */
  drop(directPath: string): void {
    this.#media.delete(directPath.split("?")[0] ?? "");
  }

  /** The URL a message carries next to its direct path. */
  urlOf(medium: HostedMedium): string {
    return `https://${this.hostname}${medium.directPath}&mms3=true`;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const outage = this.outage();
    if (outage === "close" || outage === "garbage") return void request.socket.destroy();
    if (outage === "hang") return;
    if (outage === "refuse") return answer(response, 503, { error: "service unavailable" });
    const url = new URL(request.url ?? "/", "https://fake");
    const upload = /^\/mms\/([a-z-]+)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (request.method === "POST" && upload)
      return this.#upload(request, response, url, upload[1] ?? "", upload[2] ?? "");
    if (request.method === "GET") return this.#download(response, url.pathname);
    return answer(response, 404, { error: "not found" });
  }

  async #upload(request: IncomingMessage, response: ServerResponse, url: URL, mmsType: string, token: string) {
    const refuse = (status: number, why: string) => {
      this.refusals.push({ status, why });
      answer(response, status, { error: why });
      request.resume();
    };
    if (url.searchParams.get("auth") !== this.auth) return refuse(401, "bad auth");
    if (url.searchParams.get("token") !== token) return refuse(400, "token mismatch");
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > this.maxUploadBytes) return refuse(413, "too large");
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      length += chunk.byteLength;
      if (length > this.maxUploadBytes) return refuse(413, "too large");
      chunks.push(chunk);
    }
    const enc = Buffer.concat(chunks);
    if (uploadToken(enc) !== token) return refuse(400, "the token is not the SHA-256 of the upload");
    const medium = this.store(enc, mmsType, true);
    answer(response, 200, {
      url: this.urlOf(medium),
      direct_path: medium.directPath,
      handle: null,
      object_id: digits(15),
    });
  }

  #download(response: ServerResponse, path: string): void {
    const medium = this.#media.get(path);
    if (!medium) {
      answer(response, 404, { error: "not found" });
      return;
    }
    const { status, headers, stream } = mediumResponse(medium.enc, {
      headers: { "content-type": "application/octet-stream" },
      served: (bytes) => {
        this.served += bytes;
      },
    });
    response.writeHead(status ?? 200, headers as Record<string, string | number>);
    stream?.(response);
  }
}

/** A random number of `count` digits, as WhatsApp's CDN names files. */
function digits(count: number): string {
  let text = String(randomInt(1, 10));
  while (text.length < count) text += String(randomInt(0, 10));
  return text;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
