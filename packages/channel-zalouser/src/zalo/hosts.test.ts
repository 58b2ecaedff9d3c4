import { describe, expect, it } from "vitest";
import { isZaloMediaUrl, redirectZaloUrl, redirectZaloUrls } from "./hosts.js";

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
    expect(redirectZaloUrl("https://cdn.example.net/main.js", base)).toBe("https://cdn.example.net/main.js");
    expect(redirectZaloUrl("https://zalo.me.evil.example/x", base)).toBe("https://zalo.me.evil.example/x");
  });

  it("redirects Zalo's media hosts too (photos, files, stickers), and those of mediaHosts only", () => {
    const base = "http://127.0.0.1:8080";
    expect(redirectZaloUrl("https://photo-stal-9.zdn.vn/p/1/a.jpg", base)).toBe("http://127.0.0.1:8080/p/1/a.jpg");
    expect(redirectZaloUrl("https://file-stal-19.dlfl.vn/f/2/b.pdf?x=1", base)).toBe(
      "http://127.0.0.1:8080/f/2/b.pdf?x=1",
    );
    expect(redirectZaloUrl("https://zalo-api.zadn.vn/api/emoticon/sticker/webpc?eid=7", base)).toBe(
      "http://127.0.0.1:8080/api/emoticon/sticker/webpc?eid=7",
    );
    expect(redirectZaloUrl("https://f1.zcdn.example/a.jpg", base, ["zcdn.example"])).toBe(
      "http://127.0.0.1:8080/a.jpg",
    );
    expect(redirectZaloUrl("https://photo-stal-9.zdn.vn/a.jpg", base, ["zcdn.example"])).toBe(
      "https://photo-stal-9.zdn.vn/a.jpg",
    );
  });

  it("media may be downloaded only over https from Zalo's hosts", () => {
    expect(isZaloMediaUrl("https://photo-stal-9.zdn.vn/a.jpg")).toBe(true);
    expect(isZaloMediaUrl("https://chat.zalo.me/a.jpg")).toBe(true);
    expect(isZaloMediaUrl("http://photo-stal-9.zdn.vn/a.jpg")).toBe(false);
    expect(isZaloMediaUrl("https://169.254.169.254/latest/meta-data")).toBe(false);
    expect(isZaloMediaUrl("https://zdn.vn.evil.example/a.jpg")).toBe(false);
    expect(isZaloMediaUrl("https://evilzdn.vn/a.jpg")).toBe(false);
  });

  it("redirects the listener URLs in a login answer", () => {
    expect(redirectZaloUrls({ zpw_ws: ["wss://ws1-msg.chat.zalo.me/ws"], n: 1 }, "http://127.0.0.1:1")).toEqual({
      zpw_ws: ["ws://127.0.0.1:1/ws"],
      n: 1,
    });
  });
});
