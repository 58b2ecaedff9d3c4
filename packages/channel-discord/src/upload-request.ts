import { DefaultRestOptions, type RESTOptions, type ResponseLike } from "discord.js";
import { MessageUpload } from "./uploads.js";

/**
 * discord.js' `makeRequest` (where its REST queue meets the network: once per attempt, after the
 * auth header, the rate-limit bucket and the retry decision), streaming a `MessageUpload` with
 * `fetch`. Its default (undici's `request`, @discordjs/rest 2.6.3 `resolveBody`) would concatenate
 * a streamed body in memory first. Each attempt (a 429 sat out, a 5xx or a reset retried) gets a
 * fresh form, its media opened anew. Every other request takes the default. (The channel sets no
 * `agent`, so there is no dispatcher to hand on.)
 */
export const uploadRequest: RESTOptions["makeRequest"] = async (url, init) => {
  const upload: unknown = init.body;
  if (!(upload instanceof MessageUpload)) return DefaultRestOptions.makeRequest(url, init);
  const form = upload.form();
  const headers = new Headers(init.headers as Record<string, string>); // discord.js gives a plain object
  headers.set("content-type", form.contentType);
  headers.set("content-length", String(form.contentLength));
  try {
    const response = await fetch(url, {
      method: init.method ?? "POST",
      headers,
      body: form.body,
      duplex: "half", // a streamed request body
      // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
      redirect: "error",
      ...(init.signal ? { signal: init.signal as AbortSignal } : {}),
    } as RequestInit);
    return response as unknown as ResponseLike;
  } catch (error) {
    // A medium's own failure (a wrong size, its store) ends the send: it is no network error to retry.
    throw form.failure() ?? error;
  }
};
