import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type Logger, silentLogger } from "@chorus/core";
import type { WebSocketServer } from "ws";
import { requirePackage } from "../support/index.js";
import type { WebchatHub } from "./hub.js";
import type { WebchatSite } from "./site.js";
import { SocketSession } from "./socket-session.js";

// Required by the first upgrade, not at start (~25 ms of CPU): synchronously, inside the `upgrade`
// event, as before. (Loading it with `await import()` there left a gap between the event and
// `handleUpgrade`, and a browser's first connection hung now and then.)
const requireWs = (): typeof import("ws") => requirePackage("ws") as typeof import("ws");

export interface WebchatSocketOptions {
  /** The upgrade path; default `/webchat/ws`. */
  path?: string;
  /** The gateway token: a browser connects with it as the `token` query parameter (compared in constant time). */
  token: string;
  /** Interval of pings; a socket that missed the last pong is dropped. Default 30 s. */
  heartbeatMs?: number;
  /** Largest frame a browser may send; default 64 KiB. */
  maxPayload?: number;
  /** Why an upgrade with these `Host` and `Origin` headers is refused (DNS rebinding protection), or undefined. */
  hostRefusal?: (host: string | undefined, origin: string | undefined) => string | undefined;
  logger?: Logger;
}

export interface WebchatSocket {
  /** Connected browsers right now. */
  readonly clients: number;
  /** Stops accepting, closes every socket (terminating those that do not answer) and detaches. */
  close(): Promise<void>;
}

/** Default path of the webchat WebSocket. */
export const WEBCHAT_SOCKET_PATH = "/webchat/ws";
const CLOSE_GRACE_MS = 1000;
/** The close code of sockets whose hub stopped (WebSocket "Service Restart"): browsers connect again. */
const HUB_STOPPED = 1012;

/**
 * Serves the webchat WebSocket on `server` at `path` (other upgrade paths are left to other
 * listeners): authenticates the `token` query parameter, relays frames to the site's running hub
 * and the hub's changes to the sockets in each room, and drops sockets that stop answering pings.
 * While no hub runs, connections are refused (503); when the hub stops, its sockets are closed.
 */
export function attachWebchatSocket(server: Server, site: WebchatSite, options: WebchatSocketOptions): WebchatSocket {
  const path = options.path ?? WEBCHAT_SOCKET_PATH;
  const logger = options.logger ?? silentLogger;
  let wss: WebSocketServer | undefined;
  const socketServer = (): WebSocketServer =>
    (wss ??= new (requireWs().WebSocketServer)({ noServer: true, maxPayload: options.maxPayload ?? 64 * 1024 }));
  const sessions = new Set<SocketSession>();
  // The webchat's HTTP routes (uploads, media) admit the same token as the socket.
  site.useToken(options.token);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== path) return;
    const misaddressed = options.hostRefusal?.(request.headers.host, request.headers.origin);
    if (misaddressed !== undefined) {
      refuse(socket, 403, "Forbidden", "E_AUTH", misaddressed);
      return;
    }
    if (!site.admits(url.searchParams.get("token"))) {
      refuse(
        socket,
        401,
        "Unauthorized",
        "E_AUTH",
        "missing or wrong token: open the webchat with ?token=<gateway token>",
      );
      return;
    }
    if (!site.hub) {
      refuse(socket, 503, "Service Unavailable", "E_PLATFORM", "the webchat is not running here right now; try again");
      return;
    }
    socketServer().handleUpgrade(request, socket, head, (ws) => {
      const hub = site.hub;
      if (!hub) {
        ws.close(HUB_STOPPED, "webchat restarting");
        return;
      }
      const session = new SocketSession(ws, hub, logger);
      sessions.add(session);
      ws.on("pong", () => {
        session.alive = true;
      });
      ws.on("message", (data, isBinary) => {
        if (isBinary) {
          session.send({
            type: "error",
            code: "E_INVALID_INPUT",
            message: "binary frames are not accepted; send JSON",
          });
          return;
        }
        // Frames still arriving for a hub that stopped are not taken (the socket is closing).
        if (session.hub === site.hub) session.handle(data.toString());
      });
      ws.on("error", (error) => logger.debug({ err: error }, "webchat socket error"));
      ws.on("close", () => sessions.delete(session));
    });
  };

  // The sockets of a hub that stopped are closed (the browsers reconnect to the next one).
  let relay: (() => void) | undefined;
  const follow = (hub: WebchatHub | undefined): void => {
    relay?.();
    relay = hub?.subscribe((event) => {
      for (const session of sessions) if (session.hub === hub) session.deliver(event);
    });
    for (const session of sessions) {
      if (session.hub !== hub) session.ws.close(HUB_STOPPED, "webchat restarting");
    }
  };
  follow(site.hub);
  const unwatch = site.watch(follow);
  const heartbeat = setInterval(() => {
    for (const session of sessions) {
      if (!session.alive) {
        session.ws.terminate();
        continue;
      }
      session.alive = false;
      session.ws.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();
  server.on("upgrade", onUpgrade);

  return {
    get clients() {
      return sessions.size;
    },
    async close() {
      clearInterval(heartbeat);
      server.off("upgrade", onUpgrade);
      if (site.admits(options.token)) site.useToken(undefined);
      unwatch();
      relay?.();
      await Promise.all([...sessions].map((session) => closeSocket(session)));
      const started = wss;
      if (started) await new Promise<void>((resolve) => started.close(() => resolve()));
    },
  };
}

function closeSocket(session: SocketSession): Promise<void> {
  const { ws } = session;
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    ws.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(1001, "webchat is shutting down");
  });
}

function refuse(socket: Duplex, status: number, reason: string, code: string, message: string): void {
  const body = JSON.stringify({ ok: false, error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
