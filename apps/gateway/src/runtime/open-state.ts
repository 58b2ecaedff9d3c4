import { hostname } from "node:os";
import type { Logger } from "pino";
import type { GatewayConfig } from "../config/schema.js";
import type { ChorusPaths } from "../home.js";
import { type StateConfig, StateStore } from "../state/index.js";
import { importLegacyHome } from "./legacy-import.js";

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
