import type { ChannelProbeResult } from "@chorus/core";

/** What one probe request got: the status and the parsed body, or why nothing came back. */
export type ProbeAnswer = { status: number; body: unknown } | { error: string };

/**
 * One cheap HTTP request for a channel's `probe` (`chorus doctor`): never retried, bounded by the
 * probe's signal, and its failure described without the URL (tokens ride in some platforms' paths).
 */
export async function probeRequest(
  url: string | URL,
  init: RequestInit & { signal: AbortSignal },
): Promise<ProbeAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual" });
  } catch (error) {
    return { error: networkReason(error, init.signal) };
  }
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

/** The origin of a URL (`https://api.telegram.org`), for lines that must not show its path or query. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

/** The result for a platform that did not answer: where, why, and the fix. */
export function unreachable(where: string, reason: string, fix: string): ChannelProbeResult {
  return { ok: false, detail: `${where} is unreachable: ${reason}`, fix };
}

function networkReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "no answer before the probe's timeout";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
