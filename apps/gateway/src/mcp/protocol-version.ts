/** The MCP revisions we speak, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05"] as const;

export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/** What a Streamable HTTP request without `MCP-Protocol-Version` is taken to speak (the spec's rule). */
export const ASSUMED_PROTOCOL_VERSION = "2025-03-26";

/** The version `initialize` answers: the client's when we speak it, otherwise our latest (the client decides). */
export function negotiateProtocolVersion(requested: string): string {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function isSupportedProtocolVersion(version: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
