import { describe, expect, it } from "vitest";
import { compilePattern, matchesMethod } from "./pattern.js";

describe("compilePattern", () => {
  it("captures :params, decoded, including inside a segment", () => {
    const match = compilePattern("/bot:token/:method");
    expect(match("/bot123:ABC/sendMessage")).toEqual({ token: "123:ABC", method: "sendMessage" });
    expect(match("/bot1/a%20b")).toEqual({ token: "1", method: "a b" });
    expect(match("/bot1/sendMessage/extra")).toBeUndefined();
  });

  it("tolerates one trailing slash and matches the whole path only", () => {
    const match = compilePattern("/api/v10/channels/:id");
    expect(match("/api/v10/channels/9/")).toEqual({ id: "9" });
    expect(match("/x/api/v10/channels/9")).toBeUndefined();
  });

  it("lets * match any rest of the path, across segments", () => {
    const match = compilePattern("/files/*");
    expect(match("/files/a/b/c.png")).toEqual({ "*": "a/b/c.png" });
    expect(compilePattern("*")("/anything/at/all")).toEqual({ "*": "/anything/at/all" });
    expect(compilePattern("/a/*/c/*")("/a/1/2/c/3")).toEqual({ "*": "1/2", "*2": "3" });
  });

  it("escapes regex characters in literal parts", () => {
    const match = compilePattern("/v1/chat.postMessage");
    expect(match("/v1/chat.postMessage")).toEqual({});
    expect(match("/v1/chatXpostMessage")).toBeUndefined();
  });

  it("accepts a RegExp and returns its named groups", () => {
    const match = compilePattern(/^\/users\/(?<id>\d+)$/g);
    expect(match("/users/42")).toEqual({ id: "42" });
    expect(match("/users/42")).toEqual({ id: "42" });
    expect(match("/users/abc")).toBeUndefined();
  });
});

describe("matchesMethod", () => {
  it("is case-insensitive and treats * and undefined as any", () => {
    expect(matchesMethod("post", "POST")).toBe(true);
    expect(matchesMethod("*", "DELETE")).toBe(true);
    expect(matchesMethod(undefined, "GET")).toBe(true);
    expect(matchesMethod("GET", "POST")).toBe(false);
  });
});
