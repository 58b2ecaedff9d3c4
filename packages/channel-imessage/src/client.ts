import {
  abortableDelay,
  ChorusError,
  type ErrorCode,
  parseRetryAfter,
  RateLimitedError,
  retryDelay,
} from "@chorus/core";
import type { IMessageConfig } from "./config.js";
import type {
  BlueBubblesEnvelope,
  BlueBubblesMessage,
  ReactBody,
  SendTextBody,
  ServerInfo,
  WebhookEntry,
} from "./wire.js";

/** Where BlueBubbles' REST API lives below the server URL. */
export const API_PREFIX = "/api/v1";

/** A refusal from the BlueBubbles server, keeping its HTTP status. */
export class BlueBubblesApiError extends ChorusError {
  override readonly name = "BlueBubblesApiError";

  constructor(
    readonly status: number,
    readonly operation: string,
    message: string,
    code: ErrorCode = codeFor(status),
    hint?: string,
  ) {
    super(code, message, { retryable: status >= 500, details: { status }, ...(hint ? { hint } : {}) });
  }
}

/** A call: method, path below `/api/v1`, JSON body, and what it does (for error messages). */
export interface ApiCall {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body?: unknown;
  operation: string;
}

/**
 * A typed client over `fetch` for the BlueBubbles Server REST API: the password goes in the
 * `password` query parameter (what every server release accepts), 5xx/network errors and short
 * rate limits are retried, and every failure becomes a `ChorusError`.
 */
export class BlueBubblesClient {
  constructor(
    private readonly config: IMessageConfig,
    /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
    private readonly signal?: AbortSignal,
    /** Told whether the server answered at all, so the instance can mark itself degraded. */
    private readonly onReachability?: (reachable: boolean, error?: ChorusError) => void,
  ) {}

  /** The configured server URL (for messages). */
  get serverUrl(): string {
    return this.config.serverUrl;
  }

  /** `GET /server/info`: versions, whether the Private API and its helper are up, the account. */
  serverInfo(): Promise<ServerInfo> {
    return this.call<ServerInfo>({ method: "GET", path: "/server/info", operation: "read the server info" }).then(
      (data) => data ?? {},
    );
  }

  /** `GET /webhook`: the webhooks registered with the server. */
  async listWebhooks(): Promise<WebhookEntry[]> {
    return (await this.call<WebhookEntry[]>({ method: "GET", path: "/webhook", operation: "list webhooks" })) ?? [];
  }

  /** `POST /webhook`: registers `url` for `events`. */
  async addWebhook(url: string, events: string[]): Promise<void> {
    await this.call({ method: "POST", path: "/webhook", body: { url, events }, operation: "register the webhook" });
  }

  /** `POST /message/text`: sends text; resolves with the sent message (its `guid`). */
  async sendText(body: SendTextBody): Promise<BlueBubblesMessage | undefined> {
    return this.call<BlueBubblesMessage>({
      method: "POST",
      path: "/message/text",
      body,
      operation: `send a message to ${body.chatGuid}`,
    });
  }

  /** `POST /message/react`: a tapback (`love`) or its removal (`-love`); needs the Private API. */
  async react(body: ReactBody): Promise<void> {
    await this.call({
      method: "POST",
      path: "/message/react",
      body,
      operation: `send the tapback ${body.reaction} to ${body.selectedMessageGuid}`,
    });
  }

  /** `GET /message/:guid`: one message, e.g. to learn whether a replied-to message was the bot's. */
  getMessage(guid: string): Promise<BlueBubblesMessage | undefined> {
    return this.call<BlueBubblesMessage>({
      method: "GET",
      path: `/message/${encodeURIComponent(guid)}`,
      operation: `read message ${guid}`,
    });
  }

  /** `POST` (start) or `DELETE` (stop) `/chat/:guid/typing`; needs the Private API. */
  async typing(chatGuid: string, on: boolean): Promise<void> {
    await this.call({
      method: on ? "POST" : "DELETE",
      path: `/chat/${encodeURIComponent(chatGuid)}/typing`,
      operation: `${on ? "start" : "stop"} typing in ${chatGuid}`,
    });
  }

  /** Performs one call with bounded retries; resolves with the envelope's `data`. */
  async call<T = unknown>(request: ApiCall): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(request);
      } catch (error) {
        const wait = retryDelay(error, attempt, this.config);
        if (wait === undefined || this.signal?.aborted) throw error;
        await abortableDelay(wait, this.signal);
      }
    }
  }

  async #once<T>(request: ApiCall): Promise<T | undefined> {
    const url = new URL(`${this.config.serverUrl.replace(/\/+$/u, "")}${API_PREFIX}${request.path}`);
    url.searchParams.set("password", this.config.password);
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: { accept: "application/json", ...(request.body ? { "content-type": "application/json" } : {}) },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
        signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (this.signal?.aborted) throw new ChorusError("E_DISABLED", "iMessage is stopping", { cause: error });
      const reason = timeout.aborted ? `no answer within ${this.config.timeoutMs}ms` : (error as Error).message;
      const failure = new ChorusError(
        "E_PLATFORM",
        `BlueBubbles server ${this.config.serverUrl} unreachable (${request.operation}): ${reason}`,
        { retryable: true, cause: error, hint: "Check that the Mac is on and the BlueBubbles server is running." },
      );
      this.onReachability?.(false, failure);
      throw failure;
    }
    this.onReachability?.(true);
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      throw new RateLimitedError(`BlueBubbles rate limit (${request.operation})`, retryAfterMs, {
        hint: `Wait ${Math.ceil(retryAfterMs / 1000)}s before trying again.`,
      });
    }
    const envelope = parseEnvelope<T>(text);
    if (response.status < 200 || response.status >= 300) {
      throw refusal(response.status, request.operation, envelope);
    }
    if (text !== "" && envelope === undefined) {
      // A 2xx we cannot read may still have done its work (a message sent): not retried.
      throw new ChorusError("E_PLATFORM", `BlueBubbles sent an unreadable answer (${request.operation})`, {
        retryable: false,
        details: { status: response.status, body: text.slice(0, 200) },
      });
    }
    return envelope?.data;
  }
}

function refusal(status: number, operation: string, envelope: BlueBubblesEnvelope | undefined): BlueBubblesApiError {
  const said = envelope?.error?.message ?? envelope?.message ?? "";
  const detail = said ? `: ${said}` : "";
  const base = `BlueBubbles refused to ${operation} (HTTP ${status})${detail}`;
  if (status === 401 || status === 403) {
    return new BlueBubblesApiError(status, operation, base, "E_AUTH", "Check channels.imessage.password.");
  }
  if (/private api/iu.test(said)) {
    return new BlueBubblesApiError(
      status,
      operation,
      base,
      "E_UNSUPPORTED",
      "Enable the Private API in the BlueBubbles server settings (it needs the helper bundle and SIP partly off).",
    );
  }
  return new BlueBubblesApiError(status, operation, base);
}

function codeFor(status: number): ErrorCode {
  if (status === 401 || status === 403) return "E_AUTH";
  if (status === 404) return "E_MESSAGE_NOT_FOUND";
  if (status === 400 || status === 413 || status === 422) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

function parseEnvelope<T>(text: string): BlueBubblesEnvelope<T> | undefined {
  try {
    const value = JSON.parse(text) as Partial<BlueBubblesEnvelope<T>>;
    return typeof value === "object" && value !== null && typeof value.status === "number"
      ? (value as BlueBubblesEnvelope<T>)
      : undefined;
  } catch {
    return undefined;
  }
}
