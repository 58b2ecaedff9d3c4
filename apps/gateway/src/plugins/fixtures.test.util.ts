import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

declare global {
  /** Fixture plugin modules record their package name here when they are evaluated. */
  var __imported: string[] | undefined;
}

export interface FixturePackage {
  name: string;
  version?: string;
  /** The `chorus` manifest; `null` leaves it out. Defaults to a channel manifest for `id`. */
  manifest?: Record<string, unknown> | null;
  /** The manifest's channel id (and the plugin's, unless `pluginId` says otherwise). */
  id?: string;
  pluginId?: string;
  /** The module source; a valid plugin by default. */
  source?: string;
  /** Extra package.json fields (exports, main, …). */
  fields?: Record<string, unknown>;
  /** File the module source is written to, relative to the package. */
  file?: string;
}

/** A temp directory (real path) and its removal. */
export async function makeTempDir(prefix = "chorus-plugins-"): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** Removes a temp directory made by `makeTempDir`. */
export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** ESM source of a valid plugin object that records its evaluation in `globalThis.__imported`. */
export function pluginSource(marker: string, id: string, extra = ""): string {
  return `${extra}(globalThis.__imported ??= []).push(${JSON.stringify(marker)});
export default {
  id: ${JSON.stringify(id)},
  apiVersion: 1,
  label: ${JSON.stringify(`Test ${id}`)},
  capabilities: {
    chatTypes: ["direct"],
    reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: false },
    typing: false,
    inboundReactions: false,
    replies: false,
    threads: false,
    maxTextLength: 4000,
  },
  configSchema: { "~standard": { version: 1, vendor: "test", validate: (value) => ({ value }) } },
  create: () => ({ status: () => ({ state: "stopped" }) }),
};
`;
}

/** Writes a tiny ESM package into `dir` (created); returns `dir`. */
export async function writePackage(dir: string, fixture: FixturePackage): Promise<string> {
  const id = fixture.id ?? "acme";
  const manifest = fixture.manifest === undefined ? { kind: "channel", id, apiVersion: 1 } : fixture.manifest;
  const file = fixture.file ?? "index.js";
  const pkg: Record<string, unknown> = {
    name: fixture.name,
    version: fixture.version ?? "1.0.0",
    type: "module",
    ...(manifest === null ? {} : { chorus: manifest }),
    ...fixture.fields,
  };
  await mkdir(join(dir, file, ".."), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  await writeFile(join(dir, file), fixture.source ?? pluginSource(fixture.name, fixture.pluginId ?? id));
  return dir;
}

/** Writes a fixture package into `<nodeModules>/<name>`; returns its directory. */
export async function installFixture(nodeModules: string, fixture: FixturePackage): Promise<string> {
  return writePackage(join(nodeModules, fixture.name), fixture);
}
