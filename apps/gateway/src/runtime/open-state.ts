import { hostname } from "node:os";
import { abortableDelay, backoffDelay } from "@chorus/channel-kit";
import type { Logger } from "pino";
import { PairingStore } from "../access/index.js";
import type { GatewayConfig } from "../config/index.js";
import { type GatewayMedia, mediaSettingsOf, openMedia } from "../media/index.js";
import { SystemEvents } from "../reaction-notifications/index.js";
import { OpenedSessions } from "../sessions/index.js";
import { isStateUnavailable, MessageIndex, type StateConfig, StateStore } from "../state/index.js";
import type { ChorusPaths } from "../support/index.js";
import { importLegacyHome } from "./legacy-import.js";

/** What the gateway keeps, opened: the state layer and what lives on it. */
export interface StateHandle {
  state: StateStore;
  /** Several gateways share it (PostgreSQL). */
  shared: boolean;
  /** This gateway's name in leases and `chorus channels`. */
  gatewayId: string;
  index: MessageIndex;
  sessions: OpenedSessions;
  systemEvents: SystemEvents;
  pairing: PairingStore;
  /** The media store on the same backend, with its links and retention sweep (DESIGN §2.6). */
  media: GatewayMedia;
  /** Flushes and closes, in order. */
  close(): Promise<void>;
}

/** Opens the state the config names, with the files of an earlier release imported on first start. */
export async function openState(config: GatewayConfig, paths: ChorusPaths, logger: Logger): Promise<StateHandle> {
  const state = await openGatewayState(config, paths, logger, true);
  const index = new MessageIndex({
    db: state.db,
    refs: state.refs,
    onWarning: (message, error) => logger.warn({ err: error }, message),
  });
  const sessions = new OpenedSessions(paths.home, state);
  const media = await openMedia(state.db, mediaSettingsOf(config.media, paths.home), {
    publicUrl: config.gateway.publicUrl,
    logger,
    sweep: true,
  });
  return {
    state,
    shared: state.backend === "postgres",
    gatewayId: gatewayIdOf(config),
    index,
    sessions,
    systemEvents: new SystemEvents(state),
    pairing: await PairingStore.open(state),
    media,
    close: async () => {
      media.close();
      await index.flush();
      await sessions.close();
      await state.close();
    },
  };
}

/** Waits between attempts to open a state database that is not there yet: 1 s doubling to 30 s. */
const OPEN_RETRY = { initialMs: 1_000, maxMs: 30_000, jitter: 0.2 };

/**
 * The state layer as the config says, with the files of an earlier release imported on first start.
 * With `wait`, a database that cannot be reached yet (a PostgreSQL server still starting, a restart
 * after an outage) is waited for, with a line saying so at each attempt; any other failure ends the start.
 */
export async function openGatewayState(
  config: GatewayConfig,
  paths: ChorusPaths,
  logger: Logger,
  /** Wait for a database that cannot be reached yet (the gateway's start); a CLI command fails at once. */
  wait = false,
): Promise<StateStore> {
  const options = {
    home: paths.home,
    onError: (error: Error) => logger.warn({ err: error.message }, "state database connection problem"),
  };
  let state: StateStore | undefined;
  for (let attempt = 1; !state; attempt++) {
    try {
      state = await StateStore.open(stateConfigOf(config), options);
    } catch (error) {
      if (!wait || !isStateUnavailable(error)) throw error;
      const waitMs = backoffDelay(attempt, OPEN_RETRY);
      logger.warn(
        { err: error.message, attempt, retryInMs: waitMs },
        `waiting for the state database: ${error.message}; trying again in ${Math.round(waitMs / 1000)} s`,
      );
      await abortableDelay(waitMs);
    }
  }
  logger.info({ backend: state.backend, where: state.where }, "state opened");
  await importLegacyHome(state, paths, logger);
  return state;
}

/** `state` in the config as the state layer takes it. */
export function stateConfigOf(config: GatewayConfig): StateConfig {
  const state = config.state;
  return state.backend === "postgres"
    ? { backend: "postgres", url: state.url, poolSize: state.poolSize }
    : { backend: "sqlite", ...(state.file ? { file: state.file } : {}) };
}

/** This gateway's name in leases and `chorus channels`. */
export function gatewayIdOf(config: GatewayConfig): string {
  return (config.state.backend === "postgres" && config.state.gatewayId) || `${hostname()}:${process.pid}`;
}
