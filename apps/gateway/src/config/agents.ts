import { ConfigError, type ConfigIssue } from "./errors.js";
import { checkMentionPatterns, mentionPatternsFor } from "./mention-patterns.js";
import type { AgentConfig, ChannelSettings, GatewayConfig, ModelConfig } from "./schema.js";
import { formatPath, isPlainObject, type PathSegment } from "./values.js";

/** An agent with every fallback applied: what the runtime runs. */
export interface ResolvedAgent {
  id: string;
  name: string;
  model: ModelConfig;
  systemPrompt?: string;
  /** Case-insensitive regexes that count as a mention of this agent in groups (DESIGN §4). */
  mentionPatterns: string[];
  isDefault: boolean;
}

/** The one agent of a config without `agents.list`. */
export const DEFAULT_AGENT = { id: "main", name: "Chorus" } as const;

/**
 * Applies the fallbacks of `agents.defaults` and `messages.groupChat` to every agent and checks
 * ids, the default agent, channel `agent` references and mention regexes; throws `ConfigError`.
 */
export function resolveAgents(config: GatewayConfig): ResolvedAgent[] {
  const issues: ConfigIssue[] = [];
  const listed = config.agents.list;
  const list: AgentConfig[] = listed ?? [{ ...DEFAULT_AGENT }];
  const defaults = config.agents.defaults;
  const sharedPatterns = config.messages.groupChat.mentionPatterns;
  checkMentionPatterns(sharedPatterns, ["messages", "groupChat", "mentionPatterns"], issues);

  const seen = new Map<string, number>();
  const marked: number[] = [];
  list.forEach((agent, index) => {
    const earlier = seen.get(agent.id);
    if (earlier !== undefined) {
      issues.push({
        path: formatPath(["agents", "list", index, "id"]),
        message: `duplicate agent id ${JSON.stringify(agent.id)} (also agents.list[${earlier}]); give each agent its own id`,
        value: agent.id,
      });
    } else {
      seen.set(agent.id, index);
    }
    if (agent.default === true) marked.push(index);
    checkMentionPatterns(
      agent.groupChat?.mentionPatterns,
      ["agents", "list", index, "groupChat", "mentionPatterns"],
      issues,
    );
  });
  if (marked.length > 1) {
    issues.push({
      path: formatPath(["agents", "list", marked[1] as number, "default"]),
      message: `only one agent can be the default; agents.list[${marked.join("], agents.list[")}] all say default: true`,
      value: true,
    });
  }
  const defaultIndex = marked[0] ?? 0;
  checkChannelAgents(config, new Set(list.map((agent) => agent.id)), issues);
  if (issues.length > 0) throw new ConfigError(issues);

  return list.map((agent, index) => {
    const resolved: ResolvedAgent = {
      id: agent.id,
      name: agent.name,
      model: agent.model ?? defaults.model ?? { provider: "demo" },
      mentionPatterns: mentionPatternsFor(agent, sharedPatterns),
      isDefault: index === defaultIndex,
    };
    const systemPrompt = agent.systemPrompt ?? defaults.systemPrompt;
    if (systemPrompt !== undefined) resolved.systemPrompt = systemPrompt;
    return resolved;
  });
}

/** Every `channels.<id>.agent` and `channels.<id>.accounts.<name>.agent` must name a listed agent. */
function checkChannelAgents(config: GatewayConfig, ids: Set<string>, issues: ConfigIssue[]): void {
  const known = [...ids].map((id) => JSON.stringify(id)).join(", ");
  const check = (value: unknown, path: PathSegment[]): void => {
    if (typeof value !== "string" || ids.has(value)) return;
    issues.push({
      path: formatPath(path),
      message: `unknown agent ${JSON.stringify(value)}; agents are ${known}`,
      value,
    });
  };
  for (const [channelId, block] of Object.entries(config.channels)) {
    check(block.agent, ["channels", channelId, "agent"]);
    if (!isPlainObject(block.accounts)) continue;
    for (const [name, account] of Object.entries(block.accounts)) {
      if (isPlainObject(account)) check(account.agent, ["channels", channelId, "accounts", name, "agent"]);
    }
  }
}

/** The agent that answers on a channel account: the one its settings name, else the default agent. */
export function agentFor(agents: readonly ResolvedAgent[], settings: ChannelSettings): ResolvedAgent {
  if (settings.agent !== undefined) {
    const named = agents.find((agent) => agent.id === settings.agent);
    if (named) return named;
    const known = agents.map((agent) => JSON.stringify(agent.id)).join(", ") || "none";
    throw new ConfigError([
      { path: "agent", message: `unknown agent ${JSON.stringify(settings.agent)}; agents are ${known}` },
    ]);
  }
  const chosen = agents.find((agent) => agent.isDefault) ?? agents[0];
  if (!chosen) throw new ConfigError([{ path: "agents.list", message: "no agents are configured" }]);
  return chosen;
}
