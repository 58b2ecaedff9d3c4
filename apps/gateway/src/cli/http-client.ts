import { ChorusError, type ErrorCode } from "@chorus/core";

/** True for the error `callGateway` throws when nothing answers at the gateway's URL. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ChorusError && error.details?.reachable === false;
}

/** True for the error `callGateway` throws when what answers at the gateway's URL is not a Chorus gateway. */
export function isNotChorus(error: unknown): boolean {
  return error instanceof ChorusError && error.details?.chorus === false;
}

/** A Chorus gateway's API answer: `{ ok: true, … }`, or `{ ok: false, error: { code, message } }`. */
type ChorusReply = { ok: true } | { ok: false; error: { code: ErrorCode; message: string; hint?: string } };

function isChorusReply(body: unknown): body is ChorusReply {
  if (typeof body !== "object" || body === null || typeof (body as { ok?: unknown }).ok !== "boolean") return false;
  if ((body as { ok: boolean }).ok) return true;
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  return typeof error?.code === "string" && typeof error.message === "string";
}

/**
 * Calls the running gateway's HTTP API; its error replies come back as `ChorusError`s (with the
 * HTTP status in `details`). An answer that is not Chorus's JSON means another program listens there.
 */
export async function callGateway<T>(
  endpoint: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${endpoint.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ChorusError(
      "E_PLATFORM",
      `the gateway at ${endpoint.url} is not reachable: ${(error as Error).message}`,
      {
        hint: "Start it with `chorus start`, or pass --url.",
        details: { url: endpoint.url, reachable: false },
        cause: error,
      },
    );
  }
  const text = await response.text().catch(() => "");
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = undefined;
  }
  const status = response.status;
  if (!isChorusReply(payload)) {
    const what = payload === undefined ? "without JSON" : "with JSON that is not a Chorus gateway's";
    throw new ChorusError(
      "E_PLATFORM",
      `something that is not a Chorus gateway answers at ${endpoint.url}: HTTP ${status} ${what} to ${method} ${path}`,
      {
        hint: "Stop the program that listens there, move the gateway to a free port (gateway.port in chorus.json), or pass --url with the gateway's address.",
        details: { url: endpoint.url, status, chorus: false },
      },
    );
  }
  if (!payload.ok) {
    const { code, message, hint } = payload.error;
    throw new ChorusError(code, message, { ...(hint ? { hint } : {}), details: { url: endpoint.url, status } });
  }
  return payload as T;
}
