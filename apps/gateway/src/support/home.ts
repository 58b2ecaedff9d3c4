import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where everything of one Chorus installation lives. */
export interface ChorusPaths {
  home: string;
  /** `<home>/chorus.json`, unless `CHORUS_CONFIG` names another file. */
  config: string;
  /** Third-party plugins installed by `chorus plugins add`: `<home>/plugins/node_modules/…`. */
  plugins: string;
  /** Per channel+account state directories: `<home>/state/<channel>/<account>`. */
  state: string;
  /** Per channel+account stores (`ctx.store`): `<home>/store/<channel>/<account>`. */
  stores: string;
  /** The generated API token when `gateway.auth.token` is not set. */
  tokenFile: string;
}

/** `CHORUS_HOME`, or `~/.chorus`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CHORUS_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), ".chorus");
}

/** The paths of an installation rooted at `home`. */
export function chorusPaths(home: string, env: NodeJS.ProcessEnv = process.env): ChorusPaths {
  const configFromEnv = env.CHORUS_CONFIG?.trim();
  return {
    home,
    config: configFromEnv ? resolve(configFromEnv) : join(home, "chorus.json"),
    plugins: join(home, "plugins"),
    state: join(home, "state"),
    stores: join(home, "store"),
    tokenFile: join(home, "gateway-token"),
  };
}

/** `<home>/agents`: each agent's `sessions` directory. */
export function agentsDir(home: string): string {
  return join(home, "agents");
}

/** `<home>/agents/<agentId>/sessions`: `sessions.json` and the JSONL transcripts. */
export function sessionsDir(home: string, agentId: string): string {
  return join(agentsDir(home), agentId, "sessions");
}

/** The persistent state directory of one channel account. */
export function channelStateDir(paths: ChorusPaths, channel: string, accountId: string): string {
  return join(paths.state, channel, accountId);
}

/** The store directory of one channel account (ids as safe directory names). */
export function channelStoreDir(paths: ChorusPaths, channel: string, accountId: string): string {
  return join(paths.stores, pathSegment(channel), pathSegment(accountId));
}

/** An id as one safe directory name: no separators, no `.`/`..`. */
function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/^\./u, "%2E");
}
