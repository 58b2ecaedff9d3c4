import type { Logger } from "pino";
import type { McpHttpEndpoint } from "./http.js";
import type { McpToolSource } from "./server.js";

/** What the gateway's `/mcp` route needs of the endpoint. */
export interface McpEndpoint {
  handle(request: Request): Promise<Response>;
  toolsChanged(): void;
  close(): Promise<void>;
}

/**
 * `/mcp` whose MCP SDK is imported on the first request: the SDK takes ~0.2 s to load, which a
 * gateway nobody connects an outside agent to should not pay at every start.
 */
export function lazyMcpEndpoint(tools: McpToolSource, logger: Logger): McpEndpoint {
  let loading: Promise<McpHttpEndpoint> | undefined;
  let loaded: McpHttpEndpoint | undefined;
  const load = () => {
    loading ??= Promise.all([import("./http.js"), import("./server.js")]).then(([http, server]) => {
      loaded = new http.McpHttpEndpoint(() => server.createMcpServer(tools), logger);
      return loaded;
    });
    return loading;
  };
  return {
    handle: async (request) => (await load()).handle(request),
    // Before the first request there is no session to tell.
    toolsChanged: () => loaded?.toolsChanged(),
    close: async () => {
      const endpoint = await loading?.catch(() => undefined);
      await endpoint?.close();
    },
  };
}
