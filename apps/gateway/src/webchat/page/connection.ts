import { setStatus, showError } from "./dom.js";
import type { ClientFrame, ServerFrame } from "./wire.js";

/** What the page does when the socket opens, a frame arrives, the socket is lost, or its token is refused. */
export interface ConnectionHandlers {
  opened(): void;
  frame(frame: ServerFrame): void;
  lost(): void;
  /** The gateway refuses the page's token: nothing will ever connect with this link. */
  refused(): void;
}

const token = new URLSearchParams(location.search).get("token");

/** The token of the page's link (its `?token=`), or null when it has none. */
export function pageToken(): string | null {
  return token;
}
let ws: WebSocket | null = null;
/** Failed connections in a row (the next wait doubles). */
let retry = 0;
/** Sockets given up in a row while still connecting. */
let stalls = 0;
/** Whether any socket of this page ever opened. */
let opened = false;

/** Whether the socket is open now. */
export function isOpen(): boolean {
  return ws !== null && ws.readyState === WebSocket.OPEN;
}

/** Sends a frame; tells the person and returns false when not connected. */
export function send(frame: ClientFrame): boolean {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    showError("Not connected; try again in a moment.");
    return false;
  }
  ws.send(JSON.stringify(frame));
  return true;
}

/** Sends a frame when connected, and nothing otherwise (typing indicators). */
export function sendQuietly(frame: ClientFrame): void {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

/**
 * Opens the socket with the page's token and keeps it open: a socket stuck connecting is opened
 * again, a lost one reconnects with backoff, and one refused for a wrong token says so.
 */
export function connect(handlers: ConnectionHandlers): void {
  const socketPath = document.querySelector('meta[name="webchat-socket"]')?.getAttribute("content") ?? "";
  const url = `${location.protocol === "https:" ? "wss://" : "ws://"}${location.host}${socketPath}${
    token ? `?token=${encodeURIComponent(token)}` : ""
  }`;
  const socket = new WebSocket(url);
  ws = socket;
  setStatus(stalls > 0 ? "Connecting again…" : "Connecting…");
  // A socket still connecting after this long is given up and opened again, waiting longer each time
  // (a proxy that holds the upgrade request would otherwise leave the page connecting for good).
  const stalled = setTimeout(
    () => {
      if (ws !== socket || socket.readyState !== WebSocket.CONNECTING) return;
      ws = null;
      stalls++;
      socket.close();
      connect(handlers);
    },
    Math.min(30000, 5000 * 2 ** stalls),
  );
  socket.addEventListener("open", () => {
    clearTimeout(stalled);
    retry = 0;
    stalls = 0;
    opened = true;
    handlers.opened();
  });
  socket.addEventListener("message", (event: MessageEvent) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(event.data)) as ServerFrame;
    } catch {
      return;
    }
    handlers.frame(frame);
  });
  socket.addEventListener("close", () => {
    clearTimeout(stalled);
    if (ws !== socket) return;
    ws = null;
    handlers.lost();
    const again = () => {
      const delay = Math.min(10000, 500 * 2 ** retry++);
      setStatus("Disconnected; reconnecting…");
      setTimeout(() => connect(handlers), delay);
    };
    // A socket that never opened may have been refused: ask the API whether the token is the problem.
    if (opened) {
      again();
      return;
    }
    fetch("/v1/channels", { headers: { authorization: `Bearer ${token}` } }).then((answer) => {
      if (answer.status !== 401) {
        again();
        return;
      }
      setStatus(
        `${token ? "This link has a wrong token" : "This link has no token"}: open the link that "chorus token --webchat" prints.`,
      );
      handlers.refused();
    }, again);
  });
}
