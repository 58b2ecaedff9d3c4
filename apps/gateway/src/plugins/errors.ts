import { CHORUS_API_VERSION, ChorusError, type ChorusErrorOptions } from "@chorus/core";

/** Why a channel plugin could not be found, installed or loaded. */
export type PluginLoadReason =
  | "unknown-channel"
  | "incompatible-api"
  | "not-a-channel"
  | "import-failed"
  | "invalid-plugin"
  | "id-mismatch";

/** A channel plugin could not be used; `reason` says which check failed. */
export class PluginLoadError extends ChorusError {
  override readonly name = "PluginLoadError";
  readonly reason: PluginLoadReason;

  constructor(reason: PluginLoadReason, message: string, options: Omit<ChorusErrorOptions, "retryable"> = {}) {
    super(reason === "import-failed" ? "E_PLATFORM" : "E_INVALID_INPUT", message, {
      ...options,
      retryable: false,
      details: { ...options.details, reason },
    });
    this.reason = reason;
  }
}

/** The error for a package built for another plugin API version than this gateway's. */
export function incompatibleApiError(
  who: string,
  apiVersion: number,
  details: Record<string, unknown> = {},
  suffix = "",
): PluginLoadError {
  return new PluginLoadError(
    "incompatible-api",
    `${who} declares apiVersion ${apiVersion}; this gateway speaks apiVersion ${CHORUS_API_VERSION}. Install a version of the plugin built for apiVersion ${CHORUS_API_VERSION}, or upgrade the gateway.${suffix}`,
    { details: { ...details, apiVersion, supported: CHORUS_API_VERSION } },
  );
}
