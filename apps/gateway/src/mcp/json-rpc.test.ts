import { describe, expect, it } from "vitest";
import { JsonRpcError, MAX_BATCH_SIZE, parseJsonRpcBody, parseJsonRpcMessage } from "./json-rpc.js";

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { code: (error as JsonRpcError).code, message: (error as Error).message, id: (error as JsonRpcError).id };
  }
  throw new Error("expected a JsonRpcError");
};

describe("JSON-RPC parsing", () => {
  it("reads requests, notifications, results and errors", () => {
    expect(parseJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
    });
    expect(parseJsonRpcMessage({ jsonrpc: "2.0", method: "notifications/initialized" })).toMatchObject({
      method: "notifications/initialized",
    });
    expect(parseJsonRpcMessage({ jsonrpc: "2.0", id: "x", result: {} })).toMatchObject({ id: "x", result: {} });
    expect(parseJsonRpcMessage({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "bad" } })).toMatchObject({
      error: { code: -32700 },
    });
  });

  it("text that is not JSON is -32700", () => {
    expect(codeOf(() => parseJsonRpcBody("{"))).toMatchObject({ code: -32700, id: null });
  });

  it("JSON that is not a message is -32600 naming the field, with the id when it could be read", () => {
    expect(codeOf(() => parseJsonRpcMessage("ping"))).toMatchObject({
      code: -32600,
      message: expect.stringContaining("object"),
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "1.0", id: 7, method: "ping" }))).toMatchObject({
      code: -32600,
      id: 7,
      message: expect.stringContaining("jsonrpc"),
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0", id: 1.5, method: "ping" }))).toMatchObject({
      message: expect.stringContaining("id"),
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0", id: null, method: "ping" }))).toMatchObject({
      code: -32600,
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: 3 }))).toMatchObject({
      message: expect.stringContaining("method"),
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: "x", params: "a" }))).toMatchObject({
      message: expect.stringContaining("params"),
    });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0" }))).toMatchObject({ code: -32600 });
    expect(codeOf(() => parseJsonRpcMessage({ jsonrpc: "2.0", id: 1, error: { code: "x" } }))).toMatchObject({
      message: expect.stringContaining("error"),
    });
  });

  it("a batch is an array of 1 to 100 messages; the error names the element", () => {
    expect(parseJsonRpcBody('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({
      batch: true,
      messages: [{ id: 1 }],
    });
    expect(parseJsonRpcBody('{"jsonrpc":"2.0","id":1,"method":"ping"}').batch).toBe(false);
    expect(codeOf(() => parseJsonRpcBody("[]"))).toMatchObject({
      code: -32600,
      message: expect.stringContaining("empty"),
    });
    const tooMany = JSON.stringify(
      Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" })),
    );
    expect(codeOf(() => parseJsonRpcBody(tooMany))).toMatchObject({ code: -32600 });
    expect(codeOf(() => parseJsonRpcBody('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2}]'))).toMatchObject({
      message: expect.stringContaining("[1]"),
    });
  });

  it("an error becomes the response the peer gets", () => {
    expect(new JsonRpcError(-32601, "Method not found: x", 4).toResponse()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32601, message: "Method not found: x" },
    });
  });
});
