import { FakeServerError } from "./errors.js";
import type { Fault } from "./faults.js";
import { compilePattern, matchesMethod, type PathMatcher } from "./pattern.js";
import type { RequestContext } from "./types.js";

interface PendingFault {
  fault: Fault;
  path: PathMatcher | undefined;
  remaining: number;
}

/** Injected faults, consumed in the order they were injected. */
export class FaultQueue {
  #pending: PendingFault[] = [];

  /** Queues a fault; `times` must be a positive integer or `Infinity`. */
  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!(times === Number.POSITIVE_INFINITY || (Number.isInteger(times) && times > 0))) {
      throw new FakeServerError("E_SERVER_STATE", `Fault times must be a positive integer or Infinity, got ${times}`);
    }
    const path = fault.match?.path === undefined ? undefined : compilePattern(fault.match.path);
    this.#pending.push({ fault, path, remaining: times });
  }

  /** The faults still pending, each with `times` set to what is left of it. */
  list(): Fault[] {
    return this.#pending.map(({ fault, remaining }) => ({ ...fault, times: remaining }));
  }

  /** Drops every pending fault. */
  clear(): void {
    this.#pending = [];
  }

  /** Consumes one use of the oldest fault matching this request, if any. */
  take<TState>(ctx: RequestContext<TState>): Fault | undefined {
    const entry = this.#pending.find((pending) => matches(pending, ctx as RequestContext));
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#pending.splice(this.#pending.indexOf(entry), 1);
    return entry.fault;
  }
}

function matches(pending: PendingFault, ctx: RequestContext): boolean {
  const match = pending.fault.match;
  if (!matchesMethod(match?.method, ctx.method)) return false;
  if (pending.path && pending.path(ctx.path) === undefined) return false;
  return match?.where === undefined || match.where(ctx);
}
