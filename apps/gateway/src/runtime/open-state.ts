import { hostname } from "node:os";
import type { Logger } from "pino";
import { PairingStore } from "../access/index.js";
import type { GatewayConfig } from "../config/index.js";
import { SystemEvents } from "../reaction-notifications/index.js";
import { OpenedSessions } from "../sessions/index.js";
import { MessageIndex, type StateConfig, StateStore } from "../state/index.js";
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
  /** Flushes and closes, in order. */
  close(): Promise<void>;
}

/** Opens the state the config names, with the files of an earlier release imported on first start. */
export async function openState(config: GatewayConfig, paths: ChorusPaths, logger: Logger): Promise<StateHandle> {
  const state = await openGatewayState(config, paths, logger);
  const index = new MessageIndex({
    db: state.db,
    refs: state.refs,
    onWarning: (message, error) => logger.warn({ err: error }, message),
  });
  const sessions = new OpenedSessions(paths.home, state);
  return {
    state,
    shared: state.backend === "postgres",
    gatewayId: gatewayIdOf(config),
    index,
    sessions,
    systemEvents: new SystemEvents(state),
    pairing: await PairingStore.open(state),
    close: async () => {
      await index.flush();
      await sessions.close();
      await state.close();
    },
  };
}

/** The state layer as the config says, with the files of an earlier release imported on first start. */
export async function openGatewayState(config: GatewayConfig, paths: ChorusPaths, logger: Logger): Promise<StateStore> {
  const state = await StateStore.open(stateConfigOf(config), {
    home: paths.home,
    onError: (error) => logger.warn({ err: error.message }, "state database connection problem"),
  });
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
