import { HttpClient, type PlatformCall, type Redactor } from "@chorus/channel-kit";
import type { ChorusError } from "@chorus/core";
import type { IMessageConfig } from "./config.js";
import { AUTH_HINT, readEnvelope, refusal } from "./envelope.js";
import type { BlueBubblesMessage, ReactBody, SendTextBody, ServerInfo, WebhookEntry } from "./wire.js";

/** Where BlueBubbles' REST API lives below the server URL. */
export const API_PREFIX = "/api/v1";

/** What the client needs besides the config. */
export interface BlueBubblesClientOptions {
  /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
  signal?: AbortSignal;
  /** Removes the password (and the other secrets) from every error. */
  redactor: Redactor;
  /** Told whether the server answered at all, so the instance can mark itself degraded. */
  onReachability?(reachable: boolean, error?: ChorusError): void;
}

/**
 * The BlueBubbles Server REST API over the kit's `HttpClient`: the password goes in the
 * `password` query parameter of each attempt (what every server release accepts), the
 * `{ status, message, data, error }` envelope is unwrapped, and refusals keep the server's words.
 */
export class BlueBubblesClient {
  readonly http: HttpClient;

  constructor(
    private readonly config: IMessageConfig,
    options: BlueBubblesClientOptions,
  ) {
    this.http = new HttpClient({
      label: "BlueBubbles server",
      baseUrl: `${config.serverUrl.replace(/\/+$/u, "")}${API_PREFIX}`,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      maxRetryAfterMs: config.maxRetryAfterMs,
      redactor: options.redactor,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onReachability ? { onReachability: options.onReachability } : {}),
      prepare: (request) => request.url.searchParams.set("password", config.password),
      refusal,
      read: readEnvelope,
      hints: { E_AUTH: AUTH_HINT },
    });
  }

  /** The configured server URL (for messages). */
  get serverUrl(): string {
    return this.config.serverUrl;
  }

  /** `GET /server/info`: versions, whether the Private API and its helper are up, the account. */
  async serverInfo(): Promise<ServerInfo> {
    return (
      (await this.call<ServerInfo>({ method: "GET", path: "/server/info", operation: "read the server info" })) ?? {}
    );
  }

  /** `GET /webhook`: the webhooks registered with the server. */
  async listWebhooks(): Promise<WebhookEntry[]> {
    return (await this.call<WebhookEntry[]>({ method: "GET", path: "/webhook", operation: "list webhooks" })) ?? [];
  }

  /** `POST /webhook`: registers `url` for `events`. */
  async addWebhook(url: string, events: readonly string[]): Promise<void> {
    await this.call({ method: "POST", path: "/webhook", json: { url, events }, operation: "register the webhook" });
  }

  /** `POST /message/text`: sends text; resolves with the sent message (its `guid`). */
  sendText(body: SendTextBody): Promise<BlueBubblesMessage | undefined> {
    return this.call<BlueBubblesMessage>({
      method: "POST",
      path: "/message/text",
      json: body,
      operation: `send a message to ${body.chatGuid}`,
    });
  }

  /** `POST /message/react`: a tapback (`love`) or its removal (`-love`); needs the Private API. */
  async react(body: ReactBody): Promise<void> {
    await this.call({
      method: "POST",
      path: "/message/react",
      json: body,
      // Sending the tapback the bot already holds (or taking back one it does not) changes nothing.
      idempotent: true,
      operation: `send the tapback ${body.reaction} to ${body.selectedMessageGuid}`,
    });
  }

  /** `GET /message/:guid` (with its chats when asked): whether it was the bot's, which chat it is in. */
  getMessage(guid: string, options: { withChats?: boolean } = {}): Promise<BlueBubblesMessage | undefined> {
    return this.call<BlueBubblesMessage>({
      method: "GET",
      path: `/message/${encodeURIComponent(guid)}`,
      ...(options.withChats ? { query: { with: "chats,chats.participants" } } : {}),
      operation: `read message ${guid}`,
    });
  }

  /** `POST` (start) or `DELETE` (stop) `/chat/:guid/typing`; needs the Private API. */
  async typing(chatGuid: string, on: boolean): Promise<void> {
    await this.call({
      method: on ? "POST" : "DELETE",
      path: `/chat/${encodeURIComponent(chatGuid)}/typing`,
      idempotent: true,
      operation: `${on ? "start" : "stop"} typing in ${chatGuid}`,
    });
  }

  /** One call; resolves with the envelope's `data` (undefined when it has none). */
  call<T>(call: PlatformCall): Promise<T | undefined> {
    return this.http.request<T | undefined>(call);
  }
}
