import { HttpClient, type HttpClientOptions, PlatformHttpError } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import type { SignalConfig } from "./config.js";
import { rpcFailure } from "./errors.js";
import type { JsonRpcAnswer } from "./wire.js";

export const RPC_PATH = "/api/v1/rpc";

/** How one JSON-RPC call behaves on the wire. */
export interface RpcOptions {
  /** Whether repeating the call is harmless (no message sent twice). */
  idempotent?: boolean;
  operation?: string;
  timeoutMs?: number;
  retries?: number;
  /** Leave out `params.account` (the multi-account commands: startLink, finishLink, listAccounts). */
  withoutAccount?: boolean;
}

/** The `Authorization` header of `channels.signal.auth` (a proxy in front of the daemon). */
export function authHeaders(config: Pick<SignalConfig, "auth">): Record<string, string> {
  if (!config.auth) return {};
  const pair = Buffer.from(`${config.auth.username}:${config.auth.password}`).toString("base64");
  return { authorization: `Basic ${pair}` };
}

/**
 * signal-cli's JSON-RPC over the kit's HTTP client: timeouts, retries, `Retry-After` and
 * redaction are the kit's. signal-cli's own part is its envelope — errors arrive as HTTP 200
 * with an `error` object, and a send that failed for every recipient names each one's fate —
 * and `params.account` on every call, which a multi-account daemon needs.
 */
export class SignalRpc {
  readonly http: HttpClient;
  #id = 0;

  constructor(
    readonly config: SignalConfig,
    instance: Pick<HttpClientOptions, "signal" | "redactor" | "onReachability">,
  ) {
    const account = config.account;
    this.http = new HttpClient({
      ...instance,
      label: "signal-cli",
      baseUrl: config.httpUrl,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      maxRetryAfterMs: config.maxRetryAfterMs,
      headers: authHeaders(config),
      hints: {
        E_AUTH: "Check channels.signal.auth: the proxy in front of signal-cli refused it.",
        E_PLATFORM: `Is signal-cli running? Start it with: signal-cli -a ${account} daemon --http (or set autoStart: true).`,
      },
      refusal(answer) {
        // The daemon pins the Host header to its --http address.
        if (answer.status !== 421) return undefined;
        return new PlatformHttpError(
          "E_INVALID_INPUT",
          "signal-cli refused the Host of httpUrl (HTTP 421)",
          421,
          "421",
          {
            hint: "Use the address the daemon listens on (its --http host:port) in channels.signal.httpUrl.",
          },
        );
      },
      read(answer) {
        const body = answer.json as Partial<JsonRpcAnswer> | undefined;
        if (body?.jsonrpc !== "2.0" || !("result" in body || "error" in body)) {
          // A 2xx we cannot read may still have done its work (a message sent): not retried.
          throw new ChorusError("E_PLATFORM", `signal-cli sent an answer that is not JSON-RPC (${answer.operation})`, {
            retryable: false,
            details: { status: answer.status, body: answer.text.slice(0, 200) },
          });
        }
        if (body.error) throw rpcFailure(body.error, account, answer.call.idempotent === true);
        return body.result;
      },
    });
  }

  /** Calls `method` for the account; resolves with its `result`. */
  call<T>(method: string, params: Record<string, unknown> = {}, options: RpcOptions = {}): Promise<T> {
    return this.http.request<T>({
      method: "POST",
      path: RPC_PATH,
      json: this.request(method, params, options),
      operation: options.operation ?? method,
      idempotent: options.idempotent ?? false,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.retries !== undefined && { retries: options.retries }),
    });
  }

  /** The JSON-RPC request of one call (a fresh `id`, the account in `params`), as `call` posts it. */
  request(method: string, params: Record<string, unknown>, options: Pick<RpcOptions, "withoutAccount"> = {}) {
    return {
      jsonrpc: "2.0" as const,
      id: ++this.#id,
      method,
      params: options.withoutAccount ? params : { account: this.config.account, ...params },
    };
  }
}
