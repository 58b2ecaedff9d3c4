import { ChorusError, type ErrorCode } from "@chorus/core";

/** True for the error `callGateway` throws when nothing answers at the gateway's URL. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ChorusError && error.details?.reachable === false;
}

/** Calls the running gateway's HTTP API; its error replies come back as `ChorusError`s. */
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
  const payload = (await response.json().catch(() => undefined)) as
    | { ok: boolean; error?: { code: ErrorCode; message: string; hint?: string } }
    | undefined;
  if (!payload) throw new ChorusError("E_PLATFORM", `the gateway answered HTTP ${response.status} without JSON`);
  if (!payload.ok) {
    const error = payload.error ?? { code: "E_PLATFORM" as const, message: `HTTP ${response.status}` };
    throw new ChorusError(error.code, error.message, error.hint ? { hint: error.hint } : {});
  }
  return payload as T;
}
