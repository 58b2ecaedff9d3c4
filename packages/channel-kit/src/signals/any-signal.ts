/** A source's dependants, and its one abort listener that tells them. */
interface Dependants {
  readonly refs: Set<WeakRef<AbortController>>;
  readonly onAbort: () => void;
}

/** One signal made by `anySignal`: its sources, and (weakly) its controller. */
interface Link {
  readonly sources: readonly AbortSignal[];
  readonly ref: WeakRef<AbortController>;
}

/**
 * The signals depending on a source, while there are any: one abort listener per source fans out
 * to them, so a long-lived source (a channel's lifetime) carries one listener however many
 * requests link to it, and none once they are gone.
 */
const dependantsOf = new WeakMap<AbortSignal, Dependants>();
/** Keeps a linked signal's controller alive exactly as long as the signal is. */
const controllerOf = new WeakMap<AbortSignal, AbortController>();
/** A linked signal collected takes its links out of its sources. */
const unlinkOnCollect = new FinalizationRegistry<Link>((link) => unlink(link));

/**
 * `AbortSignal.any` without its leak on Node 20 and 22: there, each call adds an entry to every
 * source's set of dependants that is never taken out, so linking each request to a channel's
 * lifetime signal grows the heap by ~50 bytes a request for as long as the channel runs (Node 24
 * prunes them). Here a signal's links leave its sources when it aborts or is collected — and a
 * source left without dependants loses the listener too (an `AbortSignal.timeout` with a listener
 * is kept until it fires). The result aborts with the reason of the first source that aborts (at
 * once if one already did). As with `AbortSignal.any`, the sources hold the result only weakly:
 * whoever must be aborted by it keeps it.
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const result = controller.signal;
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return result;
  }
  controllerOf.set(result, controller);
  const link: Link = { sources: [...signals], ref: new WeakRef(controller) };
  for (const source of link.sources) dependantsFor(source).refs.add(link.ref);
  unlinkOnCollect.register(result, link, link);
  result.addEventListener("abort", () => unlinkAborted(link), { once: true });
  return result;
}

/** How many signals made by `anySignal` still depend on `source` (for tests). */
export function dependantCount(source: AbortSignal): number {
  return dependantsOf.get(source)?.refs.size ?? 0;
}

/** The source's dependants, its listener added with the first. */
function dependantsFor(source: AbortSignal): Dependants {
  const found = dependantsOf.get(source);
  if (found) return found;
  const refs = new Set<WeakRef<AbortController>>();
  const onAbort = () => {
    dependantsOf.delete(source);
    for (const ref of [...refs]) ref.deref()?.abort(source.reason);
    refs.clear();
  };
  dependantsOf.set(source, { refs, onAbort });
  source.addEventListener("abort", onAbort, { once: true });
  return { refs, onAbort };
}

/** A linked signal aborted: the other sources need not tell it. */
function unlinkAborted(link: Link): void {
  unlinkOnCollect.unregister(link);
  unlink(link);
}

/** Takes a linked signal out of its sources' dependants; a source left with none loses its listener. */
function unlink(link: Link): void {
  for (const source of link.sources) {
    const dependants = dependantsOf.get(source);
    if (!dependants?.refs.delete(link.ref) || dependants.refs.size > 0) continue;
    dependantsOf.delete(source);
    source.removeEventListener("abort", dependants.onAbort);
  }
}
