import { describe, expect, it } from "vitest";
import { redirectZaloUrl, redirectZaloUrls } from "./hosts.js";

describe("apiBase", () => {
  it("replaces the origin of every Zalo host, keeping path and query; other URLs stay", () => {
    const base = "http://127.0.0.1:8080";
    expect(redirectZaloUrl("https://wpa.chat.zalo.me/api/login/getLoginInfo?zcid=1", base)).toBe(
      "http://127.0.0.1:8080/api/login/getLoginInfo?zcid=1",
    );
    expect(redirectZaloUrl("https://id.zalo.me/account?continue=https%3A%2F%2Fchat.zalo.me%2F", `${base}/`)).toBe(
      "http://127.0.0.1:8080/account?continue=https%3A%2F%2Fchat.zalo.me%2F",
    );
    expect(redirectZaloUrl("https://zalo.me/pc", base)).toBe("http://127.0.0.1:8080/pc");
    expect(redirectZaloUrl("wss://ws1-msg.chat.zalo.me/ws?t=1", base)).toBe("ws://127.0.0.1:8080/ws?t=1");
    expect(redirectZaloUrl("wss://ws1-msg.chat.zalo.me/ws", "https://relay.example")).toBe("wss://relay.example/ws");
    expect(redirectZaloUrl("https://stc-zlogin.zdn.vn/main.js", base)).toBe("https://stc-zlogin.zdn.vn/main.js");
    expect(redirectZaloUrl("https://zalo.me.evil.example/x", base)).toBe("https://zalo.me.evil.example/x");
  });

  it("redirects the listener URLs in a login answer", () => {
    expect(redirectZaloUrls({ zpw_ws: ["wss://ws1-msg.chat.zalo.me/ws"], n: 1 }, "http://127.0.0.1:1")).toEqual({
      zpw_ws: ["ws://127.0.0.1:1/ws"],
      n: 1,
    });
  });
});
