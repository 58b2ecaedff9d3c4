/**
 * A promise already resolved, for a hot path's "nothing to wait for": returning it costs no new
 * promise, where an `async` function or an `await` costs one (each also pays Node 20's promise hooks).
 */
export const SETTLED: Promise<void> = Promise.resolve();
