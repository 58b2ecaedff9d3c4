import { findProviderPackage, isPackagedProvider, type ProviderPackage } from "../agent/index.js";
import { formatPath, type GatewayConfig, type ModelConfig } from "../config/index.js";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";

/** One agent's model as configured (its own, else `agents.defaults.model`) and the key path it sits at. */
export interface AgentModel {
  id: string;
  model: ModelConfig;
  path: string;
}

/** Each agent's model: its own, else `agents.defaults.model`, else the demo model. */
export function agentModels(config: GatewayConfig): AgentModel[] {
  const defaults = config.agents.defaults.model;
  const fallback = { model: defaults ?? ({ provider: "demo" } as const), path: "agents.defaults.model" };
  const list = config.agents.list ?? [{ id: "main", model: undefined }];
  return list.map((agent, index) =>
    agent.model
      ? { id: agent.id, model: agent.model, path: formatPath(["agents", "list", index, "model"]) }
      : { id: agent.id, ...fallback },
  );
}

/** An agent whose provider is a separately installed package, and what was found of it. */
export interface AgentProvider extends AgentModel {
  found: ProviderPackage;
}

/** The provider package of every agent that needs one, resolved from the gateway's directory (none is loaded). */
export function agentProviders(config: GatewayConfig, gatewayDir = GATEWAY_PACKAGE_DIR): AgentProvider[] {
  return agentModels(config).flatMap((agent) =>
    isPackagedProvider(agent.model.provider)
      ? [{ ...agent, found: findProviderPackage(agent.model.provider, gatewayDir) }]
      : [],
  );
}
