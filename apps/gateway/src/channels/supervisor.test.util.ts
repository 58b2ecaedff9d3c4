import type { BackoffPolicy } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import type { ChannelContext, ChannelInstance, ChannelPlugin, ChannelStatus, Logger } from "@chorus/core";
import { createMemoryChannel } from "@chorus/testkit";
import { ChannelSupervisor } from "./supervisor.js";

/** What one start of a scripted instance does: succeed, throw, or wait until released. */
export type StartScript = "ok" | Error | { waitFor: Promise<void> };

export interface ScriptedInstance extends ChannelInstance {
  readonly signal: AbortSignal;
  stops: number;
  reported: ChannelStatus;
}

/**
 * A channel plugin (secret key `token`) whose instances start as scripted, one script entry per
 * created instance, the last entry repeating; each reports what a test sets.
 */
export function scriptedChannel(starts: StartScript[], options: { stopHangs?: boolean } = {}) {
  const instances: ScriptedInstance[] = [];
  const createdAt: number[] = [];
  const plugin: ChannelPlugin<unknown> = {
    ...(createMemoryChannel({ id: "scripted", label: "Scripted" }) as ChannelPlugin<unknown>),
    secretKeys: ["token"],
    create(ctx: ChannelContext<unknown>) {
      const script = starts[Math.min(instances.length, starts.length - 1)] ?? "ok";
      const instance: ScriptedInstance = {
        signal: ctx.signal,
        stops: 0,
        reported: { state: "running", detail: "connected as @bot" },
        async start() {
          if (script instanceof Error) throw script;
          if (script !== "ok") await script.waitFor;
        },
        async stop() {
          instance.stops++;
          if (options.stopHangs) await new Promise(() => {});
        },
        send: () => Promise.reject(new Error("not used")),
        react: () => Promise.reject(new Error("not used")),
        setTyping: async () => {},
        resolveMessageRef: () => Promise.reject(new Error("not used")),
        status: () => instance.reported,
      };
      instances.push(instance);
      createdAt.push(performance.now());
      return instance;
    },
  };
  return { plugin, instances, createdAt };
}

/** A logger that keeps every line. */
function recordingLogger() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const log = (level: string) => (fields: Record<string, unknown> | string, msg?: string) => {
    lines.push(typeof fields === "string" ? { level, msg: fields, fields: {} } : { level, msg: msg ?? "", fields });
  };
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: () => logger,
  };
  return { logger, lines };
}

const FAST: BackoffPolicy = { initialMs: 20, maxMs: 1000, jitter: 0 };

/** A supervisor of `plugin`'s account `default` (restart backoff 20 ms, doubling), every log line it writes kept. */
export function supervise(
  plugin: ChannelPlugin<unknown>,
  options: { backoff?: BackoffPolicy; stopTimeoutMs?: number; authRetryMs?: number } = {},
) {
  const { logger, lines } = recordingLogger();
  const supervisor = new ChannelSupervisor({
    plugin,
    accountId: "default",
    logger,
    backoff: options.backoff ?? FAST,
    ...(options.stopTimeoutMs !== undefined ? { stopTimeoutMs: options.stopTimeoutMs } : {}),
    ...(options.authRetryMs !== undefined ? { authRetryMs: options.authRetryMs } : {}),
    context: (signal) => ({
      config: {},
      accountId: "default",
      store: new MemoryStore(),
      stateDir: "/nonexistent",
      logger,
      signal,
      emit: async () => {},
      http: { route: () => {}, url: (path) => `http://127.0.0.1/hooks/scripted${path}` },
    }),
  });
  return { supervisor, lines };
}
