import { originOf, probeRequest } from "@chorus/channel-kit";
import { API_KEY_ENV, type RemoteModelConfig } from "../config/index.js";

/** What the doctor found about one agent's model: a line, and a fix when it cannot work. */
export interface ModelProbe {
  level: "ok" | "warning" | "error";
  detail: string;
  fix?: string;
}

/**
 * One cheap request to an agent's model endpoint (`chorus doctor`): the provider's model list,
 * with a timeout. It proves the server answers and takes the key, and that the model is there.
 */
export async function probeModel(
  config: RemoteModelConfig,
  path: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 5000,
): Promise<ModelProbe> {
  const base = config.baseURL.replace(/\/+$/, "");
  const keyVar = config.provider in API_KEY_ENV ? API_KEY_ENV[config.provider as keyof typeof API_KEY_ENV] : undefined;
  const apiKey = ("apiKey" in config ? config.apiKey : undefined) ?? (keyVar ? env[keyVar]?.trim() : undefined);
  const where = `${config.provider} at ${originOf(base)}`;
  const request = listRequest(config, base, apiKey);
  const answer = await probeRequest(request.url, { headers: request.headers, signal: AbortSignal.timeout(timeoutMs) });
  if ("error" in answer) {
    return {
      level: "error",
      detail: `the model server (${where}) is unreachable: ${answer.error}`,
      fix:
        config.provider === "ollama"
          ? `start Ollama (ollama serve) on ${originOf(base)}, or fix ${path}.baseURL`
          : config.provider === "openai-compatible"
            ? `start the model server at ${originOf(base)}, or fix ${path}.baseURL`
            : `check this machine's network and proxy, or ${path}.baseURL`,
    };
  }
  const refused =
    answer.status === 401 || answer.status === 403 || (config.provider === "google" && answer.status === 400);
  if (refused) {
    return {
      level: "error",
      detail: `the model server (${where}) refused the API key (HTTP ${answer.status})`,
      fix: `set a valid key in ${path}.apiKey${keyVar ? ` (or ${keyVar})` : ""}`,
    };
  }
  if (answer.status !== 200) {
    return {
      level: "error",
      detail: `the model server (${where}) answered HTTP ${answer.status} to its model list`,
      fix: `check ${path}.baseURL: it must be the API's base (…/v1 for OpenAI-style servers)`,
    };
  }
  const models = modelIds(config, answer.body);
  if (models !== undefined && !models.some((id) => id === config.model || id === `${config.model}:latest`)) {
    const pull = config.provider === "ollama";
    return {
      level: pull ? "error" : "warning",
      detail: `the model server (${where}) does not list the model ${JSON.stringify(config.model)}`,
      fix: pull ? `pull it: ollama pull ${config.model}` : `check ${path}.model against the server's model list`,
    };
  }
  return { level: "ok", detail: `the model server (${where}) answers and serves ${JSON.stringify(config.model)}` };
}

function listRequest(
  config: RemoteModelConfig,
  base: string,
  apiKey: string | undefined,
): { url: string; headers: Record<string, string> } {
  switch (config.provider) {
    case "ollama":
      return { url: `${base}/tags`, headers: {} };
    case "anthropic":
      return { url: `${base}/models`, headers: { "x-api-key": apiKey ?? "", "anthropic-version": "2023-06-01" } };
    case "google":
      return { url: `${base}/models`, headers: apiKey ? { "x-goog-api-key": apiKey } : {} };
    default:
      return { url: `${base}/models`, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} };
  }
}

/** The model ids a list answer names, or undefined when it is not a list this code knows. */
function modelIds(config: RemoteModelConfig, body: unknown): string[] | undefined {
  const object = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const list = config.provider === "ollama" || config.provider === "google" ? object.models : object.data;
  if (!Array.isArray(list)) return undefined;
  return list.map((entry: { id?: string; name?: string }) =>
    String(entry.id ?? entry.name ?? "").replace(/^models\//, ""),
  );
}
