import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChorusError } from "@chorus/core";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { WEBCHAT_HOOKS } from "./media-paths.js";
import { WEBCHAT_SOCKET_PATH } from "./socket.js";

export interface WebchatPageOptions {
  title: string;
  /** Where the page connects its WebSocket; default `/webchat/ws`. */
  socketPath?: string;
}

/** The page's script and stylesheet, as the build made them from `src/webchat/page/`. */
export interface WebchatPageAssets {
  readonly script: string;
  readonly style: string;
}

/** Where the build puts the page's script and stylesheet: beside the CLI bundle (`rolldown.config.mjs`). */
export const WEBCHAT_PAGE_FILES = {
  script: join(GATEWAY_PACKAGE_DIR, "dist", "bin", "webchat-page.js"),
  style: join(GATEWAY_PACKAGE_DIR, "dist", "bin", "webchat-page.css"),
} as const;

let built: WebchatPageAssets | undefined;

/** The built page script and stylesheet, read on first use (the first `GET /`) and kept. */
export function builtPageAssets(): WebchatPageAssets {
  built ??= checkedAssets({ script: readBuilt(WEBCHAT_PAGE_FILES.script), style: readBuilt(WEBCHAT_PAGE_FILES.style) });
  return built;
}

/** Assets that can be inlined: no text in them ends their element early. */
export function checkedAssets(assets: WebchatPageAssets): WebchatPageAssets {
  if (/<\/script|<!--/iu.test(assets.script)) throw new Error("the webchat page script contains </script or <!--");
  if (/<\/style/iu.test(assets.style)) throw new Error("the webchat page stylesheet contains </style");
  return assets;
}

/** The webchat as one self-contained HTML page (inline CSS and JS, no external assets). */
export function webchatPage(options: WebchatPageOptions, assets: WebchatPageAssets = builtPageAssets()): string {
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
<meta name="webchat-hooks" content="${WEBCHAT_HOOKS}">
<title>${title}</title>
<style>${assets.style}</style>
</head>
<body>
<header class="top">
  <h1>${title}</h1>
  <span id="status" role="status" data-testid="status">Connecting…</span>
  <span id="me" data-testid="me"></span>
</header>
<div class="layout" id="layout">
  <nav class="rooms" aria-label="Rooms">
    <h2>Rooms</h2>
    <div class="strip" data-testid="room-strip">
      <ul id="room-list" data-testid="room-list"></ul>
      <button type="button" id="rooms-back" class="strip-more strip-back" data-testid="rooms-back" aria-label="Scroll to earlier rooms" hidden>‹</button>
      <button type="button" id="rooms-on" class="strip-more strip-on" data-testid="rooms-more" aria-label="Scroll to more rooms" hidden>›</button>
    </div>
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
    <ul id="tray" class="tray" aria-label="Files to send" data-testid="tray" hidden></ul>
    <form id="composer-form" class="composer">
      <button type="button" id="attach" class="attach" data-testid="attach" aria-label="Attach files" title="Attach files (or paste or drop them here)"></button>
      <input type="file" id="attach-input" data-testid="attach-input" multiple hidden>
      <label for="composer" class="visually-hidden">Message</label>
      <textarea id="composer" data-testid="composer" rows="2" maxlength="8000" placeholder="Write a message… (@Name to mention)"></textarea>
      <button type="submit" id="send" data-testid="send">Send</button>
    </form>
  </main>
</div>
<div id="name-overlay" class="overlay" hidden>
  <form id="name-form" class="name-box" role="dialog" aria-modal="true" aria-labelledby="name-title" aria-describedby="name-note">
    <h2 id="name-title">Welcome</h2>
    <p id="name-note" class="note" data-testid="name-note" hidden></p>
    <label for="name-input" id="name-label">Your name</label>
    <input id="name-input" data-testid="name-input" maxlength="40" autocomplete="nickname" required>
    <p id="name-error" class="error" role="alert"></p>
    <button type="submit" id="name-submit" data-testid="name-submit">Start chatting</button>
  </form>
</div>
<p id="toast" class="toast" role="alert" data-testid="error" hidden></p>
<script>${assets.script}</script>
</body>
</html>
`;
}

/**
 * A Content-Security-Policy for the page: only its own inline script and style (by hash),
 * WebSocket/HTTP connections to the same origin, and pictures, audio and video from it.
 */
export function webchatPageCsp(assets: WebchatPageAssets = builtPageAssets()): string {
  return [
    "default-src 'none'",
    `script-src '${sha256(assets.script)}'`,
    `style-src '${sha256(assets.style)}'`,
    "connect-src 'self'",
    // Media the webchat serves itself; `blob:` for previews of files about to be uploaded.
    "img-src 'self' data: blob:",
    "media-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function readBuilt(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ChorusError("E_PLATFORM", `the webchat page is not built: cannot read ${file}`, {
      cause: error,
      hint: "Build the gateway (npx -y pnpm@12.4.2 --filter @chorus/gateway build).",
    });
  }
}

function sha256(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}
