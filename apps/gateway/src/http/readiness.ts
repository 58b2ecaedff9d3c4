/** One channel account as `/readyz` reports it. */
export interface AccountReadiness {
  channel: string;
  account: string;
  ready: boolean;
  /** Its state on this gateway (`running`, `degraded`, `failed`, `starting`, `stopped`). */
  state: string;
  detail?: string;
  /** Under a lease, the gateway that runs it ("" while none does). */
  holder?: string;
  /** Inbound events whose commit failed in the last `windowMinutes`, and the last one's error. */
  refused: { windowMinutes: number; count: number; lastAt?: string; lastError?: string };
}

/** What `GET /readyz` answers: ready, or which part is not and why. */
export interface ReadinessReport {
  ready: boolean;
  state: { ready: boolean; detail?: string };
  channels: AccountReadiness[];
  /** One line per part that is not ready. */
  notReady: string[];
}

/** A channel account as the gateway lists it (`/v1/channels`' view, the part readiness reads). */
export interface ReadinessAccount {
  id: string;
  account: string;
  status: { state: string; detail?: string };
  holder: string;
  leased: boolean;
}

export interface ReadinessOptions {
  /** A quick statement on the state database (`SELECT 1`). */
  probeState(): Promise<unknown>;
  channels(): readonly ReadinessAccount[];
  /** This gateway's name in leases: an account held by another gateway runs there. */
  gatewayId: string;
  /** An account's refused commits in the window. */
  refusals(channel: string, account: string): { count: number; lastAt?: number; lastError?: string };
  windowMinutes: number;
  /** How long the state probe may take (default 1 s). */
  timeoutMs?: number;
  /** How long a probe's answer is reused (default 1.5 s): a busy prober costs one statement a second or two. */
  cacheMs?: number;
  /**
   * The gateway's redaction of an error's text (its `Redactor`: the configured secrets by value and
   * the secret patterns): `/readyz` needs no token, and a ready answer skips the error-answer redaction.
   */
  redact(text: string): string;
}

/**
 * Whether this gateway is ready (DESIGN §6): its state database answers a quick statement within
 * the timeout, and every enabled channel account runs — here, or on the gateway that holds its
 * lease. The state probe's answer is reused for `cacheMs`; one probe runs at a time.
 */
export class Readiness {
  #probe: { at: number; result: Promise<{ ready: boolean; detail?: string }> } | undefined;
  /** The state statement waiting for its answer, since when. */
  #asking: { since: number } | undefined;

  constructor(private readonly options: ReadinessOptions) {}

  async check(now = Date.now()): Promise<ReadinessReport> {
    const state = await this.#state(now);
    const notReady: string[] = [];
    if (!state.ready) notReady.push(`state: ${state.detail}`);
    const channels = this.options.channels().map((view): AccountReadiness => {
      const { state: current, detail } = view.status;
      const elsewhere = view.leased && view.holder !== "" && view.holder !== this.options.gatewayId;
      const ready = current === "running" || elsewhere;
      if (!ready) {
        const why = view.leased && view.holder === "" ? "no gateway holds its lease" : detail;
        notReady.push(`channel ${view.id} (${view.account}) is ${current}${why ? `: ${why}` : ""}`);
      }
      const refused = this.options.refusals(view.id, view.account);
      return {
        channel: view.id,
        account: view.account,
        ready,
        state: current,
        ...(detail ? { detail } : {}),
        ...(view.leased ? { holder: view.holder } : {}),
        refused: {
          windowMinutes: this.options.windowMinutes,
          count: refused.count,
          ...(refused.lastAt !== undefined ? { lastAt: new Date(refused.lastAt).toISOString() } : {}),
          ...(refused.lastError ? { lastError: this.options.redact(refused.lastError) } : {}),
        },
      };
    });
    return { ready: notReady.length === 0, state, channels, notReady };
  }

  /** Whether the gateway is ready now. */
  async ready(): Promise<boolean> {
    return (await this.check()).ready;
  }

  #state(now: number): Promise<{ ready: boolean; detail?: string }> {
    const cached = this.#probe;
    if (cached && now - cached.at < (this.options.cacheMs ?? 1_500)) return cached.result;
    const timeoutMs = this.options.timeoutMs ?? 1_000;
    // A statement still waiting for its answer is not joined by another (they would pile up on a hung server).
    const asking = this.#asking;
    const result =
      asking !== undefined
        ? Promise.resolve({ ready: false, detail: `unreachable: no answer for ${now - asking.since} ms` })
        : this.#ask(now, timeoutMs);
    this.#probe = { at: now, result };
    return result;
  }

  #ask(now: number, timeoutMs: number): Promise<{ ready: boolean; detail?: string }> {
    const asking = { since: now };
    this.#asking = asking;
    const probe = this.options.probeState().finally(() => {
      if (this.#asking === asking) this.#asking = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([probe, timeout])
      .then(
        () => ({ ready: true }),
        (error: unknown) => ({
          ready: false,
          detail: `unreachable: ${this.options.redact(error instanceof Error ? error.message : String(error))}`,
        }),
      )
      .finally(() => clearTimeout(timer));
  }
}
