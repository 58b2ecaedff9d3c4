import { secretsOf } from "@chorus/channel-kit";
import { API_KEY_ENV, type ModelConfig } from "./models.js";
import type { GatewayConfig } from "./schema.js";
import { isSecretKey } from "./values.js";

/** A configured channel's accounts and the keys its plugin names as secret (`plugin.secretKeys`). */
export interface ChannelSecrets {
  secretKeys?: readonly string[] | undefined;
  /** Each account's validated config. */
  configs: readonly unknown[];
}

/** How deep the walk for secret-named keys goes. */
const MAX_DEPTH = 12;

/**
 * Every secret value the gateway knows from its config and environment, for a `Redactor`: each
 * string under a secret-named key (`gateway.auth.token`, every model's `apiKey`,
 * `agents.defaults.transcription.apiKey`, a channel's `botToken`, …), the password of the
 * PostgreSQL URL (`state.url`), the providers' API key variables (`OPENAI_API_KEY`, …) and what
 * each channel plugin names as its accounts' secrets. The generated API token is added when known.
 */
export function gatewaySecrets(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv = process.env,
  channels: readonly ChannelSecrets[] = [],
): string[] {
  const found = new Set<string>();
  collectSecretKeys(config, false, 0, found);
  if (config.state.backend === "postgres") for (const password of urlPasswords(config.state.url)) found.add(password);
  for (const name of Object.values(API_KEY_ENV)) {
    const value = env[name];
    if (value) found.add(value);
  }
  for (const channel of channels) {
    for (const account of channel.configs)
      for (const secret of secretsOf(account, channel.secretKeys)) found.add(secret);
  }
  return [...found];
}

/** The API key a model call sends: its `apiKey`, else the provider's own variable, which the provider reads. */
export function modelSecrets(model: ModelConfig, env: NodeJS.ProcessEnv = process.env): string[] {
  if ("apiKey" in model && model.apiKey) return [model.apiKey];
  const name = model.provider in API_KEY_ENV ? API_KEY_ENV[model.provider as keyof typeof API_KEY_ENV] : undefined;
  const value = name === undefined ? undefined : env[name];
  return value ? [value] : [];
}

/** A URL's password as written (maybe percent-encoded) and as sent; empty when it has none. */
function urlPasswords(url: string): string[] {
  // Read without `new URL`: a URL it refuses (a bad port) still carries a password worth hiding.
  const written = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*?:([^/?#]*)@/i.exec(url)?.[1];
  if (!written) return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    return [written];
  }
}

function collectSecretKeys(node: unknown, secret: boolean, depth: number, found: Set<string>): void {
  if (typeof node === "string") {
    if (secret) found.add(node);
    return;
  }
  if (node === null || typeof node !== "object" || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const item of node) collectSecretKeys(item, secret, depth + 1, found);
    return;
  }
  for (const [key, value] of Object.entries(node))
    collectSecretKeys(value, secret || isSecretKey(key), depth + 1, found);
}
