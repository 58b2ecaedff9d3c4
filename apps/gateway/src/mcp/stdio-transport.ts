import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { JsonRpcError, parseJsonRpcBody } from "./json-rpc.js";
import type { McpServer } from "./server.js";

/**
 * MCP's stdio transport for `server`: newline-delimited JSON-RPC on `input`, answers and
 * notifications on `output` (nothing else may be written there). Resolves when `input` ends.
 */
export async function serveStdioTransport(server: McpServer, input: Readable, output: Writable): Promise<void> {
  const write = (message: unknown) => {
    if (output.writable) output.write(`${JSON.stringify(message)}\n`);
  };
  server.notify = write;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    void answer(server, line).then((reply) => {
      if (reply !== undefined) write(reply);
    });
  }
  server.notify = undefined;
}

/** The reply to one line: a response, a batch of them, or nothing (notifications, responses). */
async function answer(server: McpServer, line: string): Promise<unknown> {
  try {
    const { messages, batch } = parseJsonRpcBody(line);
    const answers = (await Promise.all(messages.map((m) => server.handle(m)))).filter((a) => a !== undefined);
    if (answers.length === 0) return undefined;
    return batch ? answers : answers[0];
  } catch (error) {
    if (error instanceof JsonRpcError) return error.toResponse();
    throw error;
  }
}
