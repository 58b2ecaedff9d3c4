import { WEBCHAT_CHANNEL_ID } from "./types.js";

/** Where the gateway serves the webchat's routes (`ctx.http.route` registers them under it). */
export const WEBCHAT_HOOKS = `/hooks/${WEBCHAT_CHANNEL_ID}`;

/** `POST` announces an upload, `PUT ?id=&offset=` sends a piece of it. */
export const UPLOAD_PATH = "/upload";

/** `GET ?id=` serves a medium. */
export const MEDIA_PATH = "/media";

/** Where the page loads a medium from (the page adds its token). */
export function mediaUrl(id: string): string {
  return `${WEBCHAT_HOOKS}${MEDIA_PATH}?id=${encodeURIComponent(id)}`;
}
