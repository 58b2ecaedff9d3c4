import { Redactor } from "@chorus/channel-kit";
import type { Validation } from "../checks/index.js";
import { gatewaySecrets } from "../config/index.js";

/**
 * Every secret value of a validated installation — the gateway's config and environment, and each
 * channel account's — in a redactor: none shows in a line a command prints, whatever its spelling.
 */
export function installationRedactor(validation: Validation, env: NodeJS.ProcessEnv): Redactor {
  const channels = validation.channels.map((channel) => ({
    secretKeys: channel.plugin.secretKeys,
    configs: channel.accounts.map((account) => account.config),
  }));
  return new Redactor(gatewaySecrets(validation.config, env, channels));
}
