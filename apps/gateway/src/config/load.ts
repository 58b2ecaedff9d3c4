import { readFile } from "node:fs/promises";
import { type ChorusPaths, requirePackage } from "../support/index.js";
import { substituteEnv } from "./env.js";
import { ConfigError, formatZodIssues } from "./errors.js";
import { resolveLoadEntry } from "./load-entry.js";
import { type GatewayConfig, gatewayConfigSchema } from "./schema.js";
import { explainSyntaxError } from "./syntax-error.js";

/** A validated config and where it came from. */
export interface LoadedConfig {
  config: GatewayConfig;
  /** The file that was read, or would have been. */
  file: string;
  /** False when there was no file and the config is the defaults. */
  exists: boolean;
}

export interface ParseConfigOptions {
  /** Named in error messages. */
  file?: string;
  env: NodeJS.ProcessEnv;
}

/** Substitutes `${ENV}` references and validates a raw config tree; throws `ConfigError`. */
export function parseConfig(raw: unknown, options: ParseConfigOptions): GatewayConfig {
  let substituted: unknown;
  try {
    substituted = substituteEnv(raw, options.env);
  } catch (error) {
    if (error instanceof ConfigError && options.file) throw error.inFile(options.file);
    throw error;
  }
  const result = gatewayConfigSchema.safeParse(substituted);
  if (result.success) return result.data;
  const issues = formatZodIssues(result.error.issues, substituted, "", gatewayConfigSchema);
  throw new ConfigError(issues, { file: options.file });
}

/** `json5`, loaded when there is a config file to read. */
let json5: typeof import("json5") | undefined;
const loadJson5 = () => (json5 ??= requirePackage("json5") as typeof import("json5"));

/** Parses JSON5 config text (comments, trailing commas, unquoted keys); syntax errors name line and column. */
export function parseConfigText(text: string, file: string): unknown {
  const source = text.replace(/^\uFEFF/, "");
  if (source.trim() === "") return {};
  try {
    return loadJson5().parse(source);
  } catch (error) {
    const { lineNumber, columnNumber } = error as { lineNumber?: number; columnNumber?: number };
    const reason = (error instanceof Error ? error.message : String(error))
      .replace(/^JSON5:\s*/, "")
      .replace(/\s+at \d+:\d+$/, "");
    const message =
      lineNumber === undefined
        ? `syntax error: ${reason}`
        : explainSyntaxError(source, lineNumber, columnNumber ?? 1, reason);
    throw new ConfigError([{ path: "", message }], {
      file,
      hint: `Fix the syntax of ${file} (JSON5: comments, trailing commas and unquoted keys are fine).`,
      cause: error,
    });
  }
}

/**
 * Reads and validates the config file of an installation; a missing file gives the defaults.
 * Relative `plugins.load` paths come back absolute (resolved against the file's directory).
 */
export async function loadConfig(options: { paths: ChorusPaths; env: NodeJS.ProcessEnv }): Promise<LoadedConfig> {
  const file = options.paths.config;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { config: parseConfig({}, { file, env: options.env }), file, exists: false };
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path: "", message: reason }], {
      file,
      title: `Cannot read config ${file}`,
      hint: "Check that the path is a readable file, or point CHORUS_CONFIG (or --config) at another one.",
      cause: error,
    });
  }
  const config = parseConfig(parseConfigText(text, file), { file, env: options.env });
  config.plugins.load = config.plugins.load.map((entry) => resolveLoadEntry(entry, file));
  return { config, file, exists: true };
}
