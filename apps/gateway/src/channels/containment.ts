import { AsyncLocalStorage } from "node:async_hooks";

/** What the runtime does with an error that escaped a channel's own handling. */
export interface ContainedChannel {
  /** Marks the channel degraded and restarts it; never rethrows. */
  contain(error: unknown, how: string): void;
}

const owner = new AsyncLocalStorage<ContainedChannel | undefined>();

/**
 * Runs `fn` as the channel's code: promises, timers and sockets it creates belong to the
 * channel, so an error that escapes them later is charged to the channel, not the gateway.
 */
export function runAsChannel<T>(channel: ContainedChannel, fn: () => T): T {
  return owner.run(channel, fn);
}

/**
 * Runs `fn` as the gateway's own code, also when called from a channel (its `emit`). No owner, not
 * `exit`: on Node 20 `exit` turns the promise hooks off and on again (~2 µs, on every inbound event).
 */
export function runAsGateway<T>(fn: () => T): T {
  return owner.run(undefined, fn);
}

/**
 * Catches errors that escape a channel (an unhandled rejection, an exception thrown from a
 * timer) and hands them to that channel, so one broken plugin never ends the gateway. An error
 * no channel owns is the gateway's own: `onOwnError` decides (the CLI logs it and exits).
 * Returns the function that removes the handlers.
 */
export function containChannelErrors(onOwnError: (error: unknown, how: string) => void): () => void {
  const route = (how: string) => (error: unknown) => {
    const channel = owner.getStore();
    if (channel) channel.contain(error, how);
    else onOwnError(error, how);
  };
  const onRejection = route("unhandled rejection");
  const onException = route("uncaught exception");
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
