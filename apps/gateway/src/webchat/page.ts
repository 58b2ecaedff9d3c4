import { createHash } from "node:crypto";
import { PAGE_RENDER_SCRIPT } from "./page-render.js";
import { PAGE_STATE_SCRIPT } from "./page-script.js";
import { PAGE_STYLE } from "./page-style.js";
import { WEBCHAT_SOCKET_PATH } from "./socket.js";

export interface WebchatPageOptions {
  title: string;
  /** Where the page connects its WebSocket; default `/webchat/ws`. */
  socketPath?: string;
}

const SCRIPT = `(function () {\n"use strict";\n${PAGE_RENDER_SCRIPT}\n${PAGE_STATE_SCRIPT}\n})();`;

/** The webchat as one self-contained HTML page (inline CSS and JS, no external assets). */
export function webchatPage(options: WebchatPageOptions): string {
  const title = escapeHtml(options.title);
  const socketPath = escapeHtml(options.socketPath ?? WEBCHAT_SOCKET_PATH);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<meta name="webchat-socket" content="${socketPath}">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header class="top">
  <h1>${title}</h1>
  <span id="status" role="status" data-testid="status">Connecting…</span>
  <span id="me" data-testid="me"></span>
</header>
<div class="layout">
  <nav class="rooms" aria-label="Rooms">
    <h2>Rooms</h2>
    <ul id="room-list"></ul>
    <form id="join-form">
      <label for="join-input">Join or create a room</label>
      <input id="join-input" data-testid="join-input" autocomplete="off" maxlength="40" placeholder="team-chat" required>
      <button type="submit" data-testid="join-submit">Join</button>
    </form>
  </nav>
  <main class="chat" aria-labelledby="room-title">
    <div class="room-head">
      <h2 id="room-title" data-testid="room-title"></h2>
      <p id="room-members" data-testid="room-members"></p>
    </div>
    <ol id="messages" class="messages" role="log" aria-live="polite" aria-label="Messages" data-testid="messages"></ol>
    <p id="typing" class="typing" aria-live="polite" data-testid="typing"></p>
    <div id="reply-preview" class="reply-preview" data-testid="reply-preview" hidden>
      <span id="reply-text"></span>
      <button type="button" id="reply-cancel" aria-label="Cancel reply">×</button>
    </div>
    <form id="composer-form" class="composer">
      <label for="composer" class="visually-hidden">Message</label>
      <textarea id="composer" data-testid="composer" rows="2" maxlength="8000" placeholder="Write a message… (@Name to mention)"></textarea>
      <button type="submit" data-testid="send">Send</button>
    </form>
  </main>
</div>
<div id="name-overlay" class="overlay" hidden>
  <form id="name-form" class="name-box" role="dialog" aria-modal="true" aria-labelledby="name-title">
    <h2 id="name-title">Welcome</h2>
    <label for="name-input">Your name</label>
    <input id="name-input" data-testid="name-input" maxlength="40" autocomplete="nickname" required>
    <p id="name-error" class="error" role="alert"></p>
    <button type="submit" data-testid="name-submit">Start chatting</button>
  </form>
</div>
<p id="toast" class="toast" role="alert" data-testid="error" hidden></p>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * A Content-Security-Policy for the page: only its own inline script and style (by hash) and
 * WebSocket/HTTP connections to the same origin.
 */
export function webchatPageCsp(): string {
  return [
    "default-src 'none'",
    `script-src '${sha256(SCRIPT)}'`,
    `style-src '${sha256(PAGE_STYLE)}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function sha256(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}
