import { HttpClient, type MultipartPart, multipartBody, type PlatformCall, type Redactor } from "@chorus/channel-kit";
import type { ChorusError } from "@chorus/core";
import type { IMessageConfig } from "./config.js";
import { AUTH_HINT, readEnvelope, refusal } from "./envelope.js";
import { streamedCall } from "./streamed-call.js";
import type {
  BlueBubblesMessage,
  ReactBody,
  SendMultipartBody,
  SendTextBody,
  ServerInfo,
  UploadedAttachment,
  WebhookEntry,
} from "./wire.js";

/** The slowest upload allowed for, bytes per second: the server answers once iMessage has sent the file. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

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
    private readonly options: BlueBubblesClientOptions,
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

  /**
   * `POST /message/multipart` (Private API): one iMessage of texts and files uploaded before with
   * `uploadAttachment` (`bytes` of them together: the server answers once iMessage sent them);
   * resolves with the sent message.
   */
  sendMultipart(body: SendMultipartBody, bytes = 0): Promise<BlueBubblesMessage | undefined> {
    return this.call<BlueBubblesMessage>({
      method: "POST",
      path: "/message/multipart",
      json: body,
      timeoutMs: this.config.timeoutMs + Math.ceil(bytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000,
      operation: `send a message to ${body.chatGuid}`,
    });
  }

  /**
   * `POST /message/attachment`: one file as one message (`multipart/form-data`: `chatGuid`,
   * `tempGuid`, `name`, `method`, `isAudioMessage`, … and the file as `attachment`), streamed;
   * resolves with the sent message.
   */
  sendAttachment(fields: Record<string, string>, file: FilePart): Promise<BlueBubblesMessage | undefined> {
    return this.#postForm<BlueBubblesMessage>(
      "/message/attachment",
      fields,
      file,
      `send "${file.filename}" to ${fields.chatGuid}`,
    );
  }

  /** `POST /attachment/upload` (Private API): stores a file for `/message/multipart`; resolves with its `path`. */
  async uploadAttachment(file: FilePart): Promise<string | undefined> {
    const data = await this.#postForm<UploadedAttachment>("/attachment/upload", {}, file, `upload "${file.filename}"`);
    return typeof data?.path === "string" && data.path !== "" ? data.path : undefined;
  }

  /** `GET` of a file's bytes (`path` below the API, with the password); resolves with the 2xx answer, its body unread. */
  fetchFile(
    path: string,
    query: Record<string, string>,
    call: { operation: string; signal: AbortSignal },
  ): Promise<Response> {
    return streamedCall(this.#streamed(), {
      method: "GET",
      url: this.#authorized(path, query),
      operation: call.operation,
      timeoutMs: this.config.timeoutMs,
      signal: call.signal,
    });
  }

  /** A `multipart/form-data` POST, the file streamed from `open()`; resolves with the envelope's `data`. */
  async #postForm<T>(
    path: string,
    fields: Record<string, string>,
    file: FilePart,
    operation: string,
  ): Promise<T | undefined> {
    const parts: MultipartPart[] = [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: "attachment", filename: file.filename, contentType: file.mime, size: file.size, open: () => file.open() },
    ];
    const form = multipartBody(parts);
    const response = await streamedCall(this.#streamed(), {
      method: "POST",
      url: this.#authorized(path, {}),
      operation,
      headers: {
        "content-type": form.contentType,
        "content-length": String(form.contentLength),
        accept: "application/json",
      },
      body: form.body,
      timeoutMs: this.config.timeoutMs + Math.ceil(file.size / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
    const text = await response.text();
    const answer = {
      call: { method: "POST" as const, path },
      operation,
      status: response.status,
      headers: response.headers,
      text,
      json: parseJson(text),
    };
    try {
      return readEnvelope(answer) as T | undefined;
    } catch (error) {
      throw this.options.redactor.error(error);
    }
  }

  #streamed() {
    return {
      label: "BlueBubbles server",
      redactor: this.options.redactor,
      ...(this.options.onReachability ? { onReachability: this.options.onReachability } : {}),
    };
  }

  /** A URL below the API with the password, for calls beside the JSON client. */
  #authorized(path: string, query: Record<string, string>): URL {
    const url = this.http.url({ path, query });
    url.searchParams.set("password", this.config.password);
    return url;
  }

  /** One call; resolves with the envelope's `data` (undefined when it has none). */
  call<T>(call: PlatformCall): Promise<T | undefined> {
    return this.http.request<T | undefined>(call);
  }
}

/** A file to upload: its name, type and size, and its bytes opened as a stream. */
export interface FilePart {
  readonly filename: string;
  readonly mime: string;
  readonly size: number;
  open(): ReadableStream<Uint8Array>;
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
