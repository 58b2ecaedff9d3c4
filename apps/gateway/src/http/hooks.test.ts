import { describe, expect, it } from "vitest";
import { HookRegistry, hookPath } from "./hooks.js";

describe("HookRegistry", () => {
  it("serves a plugin route under /hooks/<channel>, with or without slashes", async () => {
    const hooks = new HookRegistry();
    const full = hooks.register("nextcloud", "POST", "default/", () => new Response("ok"));
    expect(full).toBe("/hooks/nextcloud/default");
    const handler = hooks.find("post", "/hooks/nextcloud/default/");
    expect(handler).toBeDefined();
    expect(await (await handler?.(new Request("http://x/hooks/nextcloud/default")))?.text()).toBe("ok");
    expect(hooks.find("GET", "/hooks/nextcloud/default")).toBeUndefined();
    expect(hooks.find("POST", "/hooks/nextcloud/other")).toBeUndefined();
  });

  it("a restarted channel replaces its route instead of adding a second one", async () => {
    const hooks = new HookRegistry();
    hooks.register("imessage", "POST", "/default", () => new Response("old"));
    hooks.register("imessage", "POST", "/default", () => new Response("new"));
    expect(hooks.paths()).toEqual(["POST /hooks/imessage/default"]);
    expect(await (await hooks.find("POST", "/hooks/imessage/default")?.(new Request("http://x/")))?.text()).toBe("new");
  });

  it("lists one channel's paths once each, not a neighbour whose id starts the same", () => {
    const hooks = new HookRegistry();
    hooks.register("acme", "GET", "/ping", () => new Response("ok"));
    hooks.register("acme", "POST", "/ping", () => new Response("ok"));
    hooks.register("acme", "POST", "/", () => new Response("ok"));
    hooks.register("acme2", "POST", "/in", () => new Response("ok"));
    expect(hooks.pathsOf("acme")).toEqual(["/hooks/acme", "/hooks/acme/ping"]);
    expect(hooks.pathsOf("whatsapp")).toEqual([]);
  });

  it("refuses query strings and fragments in a route path", () => {
    expect(() => hookPath("telegram", "/hook?secret=1")).toThrow("webhook path must not contain ? or #");
    expect(hookPath("telegram", "/")).toBe("/hooks/telegram");
  });
});
