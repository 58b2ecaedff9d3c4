import { waitFor } from "@chorus/testkit";
import makeWASocket, {
  type AuthenticationCreds,
  type BaileysEventMap,
  type ConnectionState,
  type SignalKeyStore,
  type SocketConfig,
  type WASocket,
} from "@whiskeysockets/baileys";
import { createMemoryKeyStore } from "./memory-key-store.js";
import { silentBaileysLogger } from "./silent-logger.js";

export interface BaileysClientOptions {
  /** The fake's `url`. */
  url: string;
  /** Credentials (e.g. `fake.linkedCreds()`, or `initAuthCreds()` to link); Baileys updates them in place. */
  creds: AuthenticationCreds;
  /** Signal keys; default a fresh in-memory store. Reuse it across reconnects of the same device. */
  keys?: SignalKeyStore;
  /** Extra Baileys options. */
  config?: Partial<SocketConfig>;
}

/** A raw Baileys socket on the fake, with the events tests look at recorded. */
export interface BaileysClient {
  readonly sock: WASocket;
  readonly creds: AuthenticationCreds;
  readonly keys: SignalKeyStore;
  readonly updates: Partial<ConnectionState>[];
  readonly upserts: BaileysEventMap["messages.upsert"][];
  readonly reactions: BaileysEventMap["messages.reaction"][];
  /** Resolves when the connection opens; rejects with the disconnect error if it closes first. */
  opened(timeoutMs?: number): Promise<void>;
  /** Resolves with the status code Baileys closed with (`lastDisconnect.error.output.statusCode`). */
  closed(timeoutMs?: number): Promise<number | undefined>;
  /** The first QR Baileys emitted. */
  qr(timeoutMs?: number): Promise<string>;
  /** Ends the socket (idempotent). */
  end(): Promise<void>;
}

/** The status code of a Baileys disconnect error (a Boom). */
export function disconnectCode(error: unknown): number | undefined {
  return (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
}

/**
 * Opens the real, unmodified Baileys socket against the fake with test-friendly settings: silent
 * logger, not marked online, no full history sync.
 */
export function connectBaileys(options: BaileysClientOptions): BaileysClient {
  const keys = options.keys ?? createMemoryKeyStore();
  const sock = makeWASocket({
    waWebSocketUrl: options.url,
    auth: { creds: options.creds, keys },
    logger: silentBaileysLogger,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    ...options.config,
  });
  const updates: Partial<ConnectionState>[] = [];
  const upserts: BaileysEventMap["messages.upsert"][] = [];
  const reactions: BaileysEventMap["messages.reaction"][] = [];
  sock.ev.on("connection.update", (update) => updates.push(update));
  sock.ev.on("messages.upsert", (upsert) => upserts.push(upsert));
  sock.ev.on("messages.reaction", (reaction) => reactions.push(reaction));
  const closedUpdate = () => updates.find((update) => update.connection === "close");
  let ended = false;
  return {
    sock,
    creds: options.creds,
    keys,
    updates,
    upserts,
    reactions,
    async opened(timeoutMs = 20_000) {
      const state = await waitFor(() => updates.find((u) => u.connection === "open" || u.connection === "close"), {
        timeoutMs,
        message: "the Baileys connection to open",
      });
      if (state.connection === "close") throw state.lastDisconnect?.error ?? new Error("connection closed before open");
    },
    async closed(timeoutMs = 20_000) {
      const state = await waitFor(closedUpdate, { timeoutMs, message: "the Baileys connection to close" });
      return disconnectCode(state.lastDisconnect?.error);
    },
    async qr(timeoutMs = 20_000) {
      const state = await waitFor(() => updates.find((u) => u.qr), { timeoutMs, message: "a QR from Baileys" });
      return state.qr ?? "";
    },
    async end() {
      if (ended) return;
      ended = true;
      await sock.end(undefined);
    },
  };
}
