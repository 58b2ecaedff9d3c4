import { pageToken } from "./connection.js";

/** Bytes as people read them (`512 KB`, `3.1 MB`), as the gateway writes them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** Where the webchat's routes are (`/hooks/webchat`), as the page's markup says. */
export function hooksPath(): string {
  return document.querySelector('meta[name="webchat-hooks"]')?.getAttribute("content") ?? "/hooks/webchat";
}

/** A medium's address with the page's token (a picture or a player cannot send it as a header). */
export function withToken(url: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}token=${encodeURIComponent(pageToken() ?? "")}`;
}
