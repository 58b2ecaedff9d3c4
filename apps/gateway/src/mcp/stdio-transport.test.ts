import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { McpServer } from "./server.js";
import { serveStdioTransport } from "./stdio-transport.js";

/** The server on a pair of in-memory pipes: lines in, parsed lines out. */
function pipes(onError?: (error: unknown) => void) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new McpServer(
    {
      list: () => {
        throw new Error("the source broke at /secret/path");
      },
      call: async () => ({ content: [{ type: "text", text: "done" }] }),
    },
    onError ? { onError } : {},
  );
  const served = serveStdioTransport(server, input, output);
  const lines: unknown[] = [];
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const part of parts) lines.push(JSON.parse(part));
  });
  const next = async (count: number) => {
    for (let i = 0; i < 200 && lines.length < count; i++) await new Promise((resolve) => setImmediate(resolve));
    return lines.slice(0, count);
  };
  return { input, server, served, lines, next };
}

describe("the stdio transport", () => {
  it("answers one JSON line per request, nothing for notifications, errors with clear codes", async () => {
    const { input, served, next, lines } = pipes();
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n');
    expect(await next(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    input.write("not json\n\n");
    input.write('{"jsonrpc":"2.0","id":2,"method":"nope"}\n');
    input.write('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}\n');
    expect(await next(4)).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringContaining("Parse error") } },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found: nope" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32602, message: expect.stringContaining("params.name") } },
    ]);
    input.end();
    await served;
    expect(lines).toHaveLength(4);
  });

  it("writes tools/list_changed as a line of its own", async () => {
    const { input, server, served, next } = pipes();
    server.toolsChanged();
    expect(await next(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    input.end();
    await served;
  });

  it("a handler's own failure is -32603 Internal error, its message kept out of the answer and given to onError", async () => {
    const failures: unknown[] = [];
    const { input, served, next } = pipes((error) => failures.push(error));
    input.write('{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n');
    expect(await next(1)).toEqual([{ jsonrpc: "2.0", id: 9, error: { code: -32603, message: "Internal error" } }]);
    expect((failures[0] as Error).message).toContain("the source broke");
    input.end();
    await served;
  });
});
