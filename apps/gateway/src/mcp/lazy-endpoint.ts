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
 * `/mcp` whose modules are imported on the first request: a gateway nobody connects an outside
 * agent to does not load the MCP server at all.
 */
export function lazyMcpEndpoint(tools: McpToolSource, logger: Logger): McpEndpoint {
  let loading: Promise<McpHttpEndpoint> | undefined;
  let loaded: McpHttpEndpoint | undefined;
  const load = () => {
    loading ??= Promise.all([import("./http.js"), import("./server.js")]).then(([http, server]) => {
      const onError = (error: unknown) => logger.warn({ err: (error as Error).message }, "an MCP request failed");
      loaded = new http.McpHttpEndpoint(() => server.createMcpServer(tools, { onError }), logger);
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
