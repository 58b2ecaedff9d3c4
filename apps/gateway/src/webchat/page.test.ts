import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { checkedAssets, type WebchatPageAssets, webchatPage, webchatPageCsp } from "./page.js";
import { buildPageAssets } from "./page-build.test.util.js";

const sha = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

let assets: WebchatPageAssets;
let html: string;

beforeAll(async () => {
  assets = await buildPageAssets();
  html = webchatPage({ title: `<img src=x onerror="alert(1)"> & Co` }, assets);
});

describe("webchatPage", () => {
  it("escapes the title", () => {
    expect(html).toContain("<title>&#60;img src=x onerror=&#34;alert(1)&#34;&#62; &#38; Co</title>");
    expect(html).not.toContain("<img");
  });

  it("is self-contained, with the test ids and labelled controls", () => {
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    for (const id of ["composer", "send", "name-input", "name-submit", "messages", "typing"]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('<label for="composer"');
    expect(html).toContain('<label for="name-input" id="name-label">Your name</label>');
    expect(html).toContain('role="log"');
    expect(html).toContain('<meta name="webchat-socket" content="/webchat/ws">');
    expect(webchatPage({ title: "x", socketPath: "/chat/ws" }, assets)).toContain('content="/chat/ws"');
  });

  it("carries the page script built from src/webchat/page/ and its stylesheet, as they are", () => {
    expect(html).toContain(`<script>${assets.script}</script>`);
    expect(html).toContain(`<style>${assets.style}</style>`);
    expect(assets.script).toContain("// src/webchat/page/main.ts");
    expect(assets.script).not.toContain("sourceMappingURL");
  });

  it("never puts user content through innerHTML", () => {
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("has a CSP naming exactly its inline script and style", () => {
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? "";
    const csp = webchatPageCsp(assets);
    expect(csp).toContain(`script-src '${sha(script)}'`);
    expect(csp).toContain(`style-src '${sha(style)}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
  });

  it("refuses a script or stylesheet that would end its element early", () => {
    expect(() => checkedAssets({ script: 'const a = "</script>";', style: "" })).toThrow(/<\/script/);
    expect(() => checkedAssets({ script: "", style: "a::after { content: '</style>' }" })).toThrow(/<\/style/);
  });
});
