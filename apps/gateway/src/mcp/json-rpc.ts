/** JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as MCP uses it: messages, typed parsing and errors. */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResult {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The error codes JSON-RPC 2.0 defines. */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** A JSON-RPC error: what the peer gets as `error`, with the id of the request it answers when known. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly id: JsonRpcId | null = null,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }

  toResponse(): JsonRpcErrorResponse {
    return { jsonrpc: "2.0", id: this.id, error: { code: this.code, message: this.message } };
  }
}

/** The most messages one batch may carry. */
export const MAX_BATCH_SIZE = 100;

/**
 * Parses a body of one message or a batch (an array, as JSON-RPC and MCP 2025-03-26 allow).
 * Throws a `JsonRpcError`: -32700 for text that is not JSON, -32600 for JSON that is not a message.
 */
export function parseJsonRpcBody(text: string): { messages: JsonRpcMessage[]; batch: boolean } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new JsonRpcError(JSON_RPC.parseError, `Parse error: ${(error as Error).message}`);
  }
  if (!Array.isArray(raw)) return { messages: [parseJsonRpcMessage(raw)], batch: false };
  if (raw.length === 0) throw new JsonRpcError(JSON_RPC.invalidRequest, "Invalid Request: an empty batch");
  if (raw.length > MAX_BATCH_SIZE)
    throw new JsonRpcError(JSON_RPC.invalidRequest, `Invalid Request: a batch of more than ${MAX_BATCH_SIZE} messages`);
  return { messages: raw.map((item, index) => parseJsonRpcMessage(item, `[${index}]`)), batch: true };
}

/** Checks that `raw` is one JSON-RPC 2.0 message; the error names the field that is wrong. */
export function parseJsonRpcMessage(raw: unknown, at = ""): JsonRpcMessage {
  const invalid = (problem: string, id: JsonRpcId | null = null) =>
    new JsonRpcError(JSON_RPC.invalidRequest, `Invalid Request: ${at ? `${at} ` : ""}${problem}`, id);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalid("a message must be a JSON object");
  const message = raw as Record<string, unknown>;
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== "2.0") throw invalid('jsonrpc must be "2.0"', id);
  // A null id is only for an error answering a message whose id could not be read.
  const badId = "id" in message && !isId(message.id);
  if (badId && !(message.id === null && "error" in message)) throw invalid("id must be a string or an integer");
  if ("method" in message) {
    if (typeof message.method !== "string" || message.method === "") throw invalid("method must be a string", id);
    const params = message.params;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params)))
      throw invalid("params must be an object", id);
    return message as unknown as JsonRpcRequest | JsonRpcNotification;
  }
  if (!("id" in message)) throw invalid("a message needs a method (request, notification) or an id (response)");
  if ("result" in message) {
    if (typeof message.result !== "object" || message.result === null) throw invalid("result must be an object", id);
    return message as unknown as JsonRpcResult;
  }
  const error = message.error as { code?: unknown; message?: unknown } | undefined;
  if (
    typeof error !== "object" ||
    error === null ||
    typeof error.code !== "number" ||
    typeof error.message !== "string"
  )
    throw invalid("a response needs a result, or an error with a numeric code and a message", id);
  return message as unknown as JsonRpcErrorResponse;
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}
