import { randomUUID } from "node:crypto";
import type { FakeServer, PlatformFault, WebSocketHandler } from "@chorus/testkit";
import { SLACK_REDELIVERY, type SlackRedelivery } from "./fake-events.js";

/** One accepted connection (a `ws` socket, as testkit hands it over). */
type WebSocket = Parameters<WebSocketHandler>[0];

/** An `events_api` envelope as Slack sends it. */
export interface SocketEnvelope {
  envelope_id: string;
  payload: unknown;
  type: "events_api";
  accepts_response_payload: boolean;
  /** 0 on the first attempt, then Slack's retry number. */
  retry_attempt: number;
  /** Why the attempt before failed (`timeout`: no ack in time); "" on the first. */
  retry_reason: string;
}

interface Pending {
  frame: SocketEnvelope;
  settle(acked: boolean): void;
}

/**
 * Slack's Socket Mode side: `apps.connections.open` hands out single-use `ws://…/link/?ticket=`
 * URLs; a connection gets `hello`, then `events_api` envelopes, each waiting for the app's
 * `{ envelope_id }` ack. An envelope not acknowledged within `answerWithinMs` (Slack: 3 s) is
 * retried as the Events API retries: a new envelope with `retry_attempt` and `retry_reason:
 * "timeout"`, after each of `retryDelaysMs`, then Slack gives up. While it waits for its ack, an
 * envelope is also sent again on the next connection. `fault(kind)` makes connections misbehave:
 * `refuse` and `close` end them, `hang` never says hello, `garbage` sends frames that are not JSON.
 */
export class FakeSlackSocket {
  /** Every frame the app sent (acks), parsed. */
  readonly received: Record<string, unknown>[] = [];
  /** Every envelope Slack made (retries are new envelopes), oldest first. */
  readonly envelopes: SocketEnvelope[] = [];
  readonly #tickets = new Set<string>();
  readonly #live = new Set<WebSocket>();
  readonly #pending = new Map<string, Pending>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #fault: PlatformFault | undefined;
  #connections = 0;
  #closed = false;

  constructor(
    private readonly server: FakeServer,
    private readonly appId: string,
    private readonly redelivery: SlackRedelivery = SLACK_REDELIVERY,
  ) {
    server.websocket("/link/", (socket, ctx) => this.#accept(socket, ctx.query.get("ticket") ?? ""));
  }

  /** The URL `apps.connections.open` answers: one connection per ticket. */
  openUrl(): string {
    const ticket = randomUUID();
    this.#tickets.add(ticket);
    return `${this.server.url.replace(/^http/, "ws")}/link/?ticket=${ticket}&app_id=${this.appId}`;
  }

  /** Connections that got `hello` and are open. */
  get connections(): number {
    return this.#live.size;
  }

  /** How many connections were accepted so far (reconnects count). */
  get accepted(): number {
    return this.#connections;
  }

  /**
   * Sends `payload` as an `events_api` envelope, retried while not acknowledged; resolves true
   * once one attempt was acknowledged, false when Slack gave up. A retry made by hand (`retry`)
   * is sent once, with those fields.
   */
  deliver(payload: unknown, retry?: { attempt: number; reason: string }): Promise<boolean> {
    return new Promise<boolean>((done) => this.#send(payload, retry?.attempt ?? 0, retry?.reason ?? "", !retry, done));
  }

  /** Slack asks the app to reconnect (`refresh_requested`, `warning`, `link_disabled`). */
  disconnect(reason = "refresh_requested"): void {
    const frame = JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-applink-1" } });
    for (const socket of this.#live) socket.send(frame);
  }

  /** Cuts every connection without a closing handshake (a network drop). */
  drop(): void {
    for (const socket of this.#live) socket.terminate();
    this.#live.clear();
  }

  /** Sends a frame as it is (a garbled one, say) on every connection. */
  sendRaw(frame: string): void {
    for (const socket of this.#live) socket.send(frame);
  }

  fault(kind: PlatformFault): void {
    this.#fault = kind;
    if (kind === "refuse" || kind === "close") this.drop();
    if (kind === "garbage") this.sendRaw("<html><body>502 Bad Gateway</body></html>");
  }

  heal(): void {
    this.#fault = undefined;
  }

  /** Slack stops delivering: retries to come are dropped, envelopes waiting for an ack count as not acknowledged. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const pending of [...this.#pending.values()]) pending.settle(false);
  }

  /** One attempt: a fresh envelope, sent now when a connection is up, else on the next one. */
  #send(payload: unknown, attempt: number, reason: string, retried: boolean, done: (acked: boolean) => void): void {
    if (this.#closed) {
      done(false);
      return;
    }
    const frame: SocketEnvelope = {
      envelope_id: randomUUID(),
      payload,
      type: "events_api",
      accepts_response_payload: false,
      retry_attempt: attempt,
      retry_reason: reason,
    };
    this.envelopes.push(frame);
    const timeout = this.#after(this.redelivery.answerWithinMs, () => {
      // No ack in time: this envelope is failed; Slack retries with a new one, or gives up.
      this.#pending.delete(frame.envelope_id);
      const wait = retried ? this.redelivery.retryDelaysMs[attempt] : undefined;
      if (wait === undefined || this.#closed) done(false);
      else this.#after(wait, () => this.#send(payload, attempt + 1, "timeout", true, done));
    });
    this.#pending.set(frame.envelope_id, {
      frame,
      settle: (acked) => {
        clearTimeout(timeout);
        this.#timers.delete(timeout);
        this.#pending.delete(frame.envelope_id);
        done(acked);
      },
    });
    const [socket] = this.#live;
    if (socket && this.#fault === undefined) socket.send(JSON.stringify(frame));
  }

  #after(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.#timers.add(timer);
    return timer;
  }

  #accept(socket: WebSocket, ticket: string): void {
    this.#connections++;
    if (!this.#tickets.delete(ticket) || this.#fault === "refuse" || this.#fault === "close") {
      socket.terminate();
      return;
    }
    if (this.#fault === "hang") return;
    if (this.#fault === "garbage") {
      socket.send("<html><body>502 Bad Gateway</body></html>");
      return;
    }
    socket.on("message", (data: unknown) => this.#ack(String(data)));
    socket.on("close", () => this.#live.delete(socket));
    this.#live.add(socket);
    socket.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.#live.size,
        debug_info: { host: "fake-applink-1", build_number: 105, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    // What waits for its ack is sent again on the new connection.
    for (const { frame } of this.#pending.values()) socket.send(JSON.stringify(frame));
  }

  #ack(data: string): void {
    try {
      const frame = JSON.parse(data) as { envelope_id?: unknown };
      this.received.push(frame);
      if (typeof frame.envelope_id === "string") this.#pending.get(frame.envelope_id)?.settle(true);
    } catch {
      this.received.push({ unparseable: data });
    }
  }
}
