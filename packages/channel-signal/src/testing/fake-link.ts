import { randomBytes, randomUUID } from "node:crypto";
import { RpcFailure } from "./fake-rpc.js";

/** A `finishLink` waiting for the phone. */
interface PendingLink {
  readonly uri: string;
  readonly deviceName: string;
  settle(outcome: { number: string } | RpcFailure): void;
}

/**
 * Linking as signal-cli does it in multi-account mode: `startLink` hands out a provisioning URI,
 * `finishLink` waits until the phone scanned it (or the code expired, or the link failed).
 */
export class FakeLinking {
  readonly #issued = new Set<string>();
  readonly #pending: PendingLink[] = [];
  /** The device names the phone was asked to link, in order. */
  readonly linkedNames: string[] = [];

  constructor(private readonly onLinked: (number: string) => void) {}

  /** `startLink`'s result. */
  start(): { deviceLinkUri: string } {
    const pubKey = encodeURIComponent(randomBytes(33).toString("base64"));
    const uri = `sgnl://linkdevice?uuid=${encodeURIComponent(randomUUID())}&pub_key=${pubKey}`;
    this.#issued.add(uri);
    return { deviceLinkUri: uri };
  }

  /** `finishLink`: resolves once the phone scanned the URI. */
  finish(params: Record<string, unknown>): Promise<{ number: string }> {
    const uri = params.deviceLinkUri;
    if (typeof uri !== "string") throw new RpcFailure(-1, "Missing deviceLinkUri.");
    if (!this.#issued.has(uri)) throw new RpcFailure(-1, "Unknown device link uri.");
    const deviceName = typeof params.deviceName === "string" ? params.deviceName : "cli";
    return new Promise((resolve, reject) => {
      this.#pending.push({
        uri,
        deviceName,
        settle: (outcome) => (outcome instanceof RpcFailure ? reject(outcome) : resolve(outcome)),
      });
    });
  }

  /** The URIs a `finishLink` waits on. */
  waiting(): string[] {
    return this.#pending.map((p) => p.uri);
  }

  /** The phone of `number` scans `uri`: the account is linked. */
  scan(uri: string, number: string): void {
    const link = this.#take(uri);
    this.linkedNames.push(link.deviceName);
    this.onLinked(number);
    link.settle({ number });
  }

  /** Nobody scanned in time: signal-cli's timeout. */
  expire(uri: string): void {
    this.#take(uri).settle(new RpcFailure(-1, "Link request timed out, please try again."));
  }

  /** The link broke off on the phone's side. */
  refuse(uri: string): void {
    this.#take(uri).settle(new RpcFailure(-3, "Link request error: Connection closed! (IOException)"));
  }

  #take(uri: string): PendingLink {
    const at = this.#pending.findIndex((p) => p.uri === uri);
    if (at < 0) throw new Error(`fake signal-cli: no finishLink waits on ${uri}`);
    this.#issued.delete(uri);
    return this.#pending.splice(at, 1)[0] as PendingLink;
  }
}
