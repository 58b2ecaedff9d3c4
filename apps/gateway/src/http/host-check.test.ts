import { describe, expect, it } from "vitest";
import { formatZodIssues, gatewayConfigSchema } from "../config/index.js";
import { HostPolicy } from "./host-check.js";

describe("HostPolicy: the names a gateway on loopback answers", () => {
  const local = new HostPolicy({ bind: "127.0.0.1" });

  it("serves localhost, 127.0.0.1 and [::1] on any port, with or without a local Origin", () => {
    for (const host of [
      "localhost",
      "localhost:7800",
      "127.0.0.1",
      "127.0.0.1:1",
      "[::1]",
      "[::1]:7800",
      "LOCALHOST",
    ]) {
      expect(local.refusal(host, undefined)).toBeUndefined();
    }
    expect(local.refusal("127.0.0.1:7800", "http://localhost:5173")).toBeUndefined();
    expect(local.refusal("127.0.0.1:7800", "https://[::1]")).toBeUndefined();
  });

  it("refuses another name, a missing or malformed Host, and a page from another site", () => {
    expect(local.refusal("evil.example.com", undefined)).toMatch(/^Host "evil.example.com" is not served here/);
    expect(local.refusal("evil.example.com:7800", undefined)).toContain("gateway.allowedOrigins");
    expect(local.refusal(undefined, undefined)).toMatch(/^Host "" is not served/);
    expect(local.refusal("user@127.0.0.1", undefined)).toBeDefined();
    expect(local.refusal("127.0.0.1.evil.example.com", undefined)).toBeDefined();
    expect(local.refusal("127.0.0.1:7800", "http://evil.example.com")).toMatch(/^Origin "http:\/\/evil.example.com"/);
    expect(local.refusal("127.0.0.1:7800", "null")).toBeDefined();
  });

  it("serves the names of gateway.publicUrl and gateway.allowedOrigins, and pages from those origins", () => {
    const proxied = new HostPolicy({
      bind: "127.0.0.1",
      publicUrl: "https://chat.example.com/base",
      allowedOrigins: ["https://admin.example.com:8443"],
    });
    expect(proxied.refusal("chat.example.com", "https://chat.example.com")).toBeUndefined();
    expect(proxied.refusal("admin.example.com:8443", "https://admin.example.com:8443")).toBeUndefined();
    expect(proxied.refusal("chat.example.com", "http://chat.example.com")).toBeDefined();
    expect(proxied.refusal("other.example.com", undefined)).toBeDefined();
  });

  it("serves every name when bound beyond loopback (the token guards it)", () => {
    expect(new HostPolicy({ bind: "0.0.0.0" }).refusal("chat.example.com", "https://anywhere.example")).toBeUndefined();
  });
});

describe("gateway.allowedOrigins in the config", () => {
  const issues = (allowedOrigins: unknown) => {
    const raw = { gateway: { allowedOrigins } };
    const result = gatewayConfigSchema.safeParse(raw);
    return result.success ? [] : formatZodIssues(result.error.issues, raw, "", gatewayConfigSchema);
  };

  it("defaults to none and takes origins", () => {
    expect(gatewayConfigSchema.parse({}).gateway.allowedOrigins).toEqual([]);
    expect(issues(["https://chat.example.com", "http://10.0.0.5:7800/"])).toEqual([]);
  });

  it("names the entry and says what an origin is", () => {
    const [notUrl] = issues(["chat.example.com"]);
    expect(notUrl?.path).toBe("gateway.allowedOrigins[0]");
    expect(notUrl?.message).toMatch(/URL|origin/);
    const [withPath] = issues(["https://chat.example.com", "https://chat.example.com/app"]);
    expect(withPath).toMatchObject({ path: "gateway.allowedOrigins[1]" });
    expect(withPath?.message).toContain("must be an origin (scheme, host and port");
  });
});
