import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { webchatPage, webchatPageCsp } from "./page.js";

const sha = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

describe("webchatPage", () => {
  const html = webchatPage({ title: `<img src=x onerror="alert(1)"> & Co` });

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
    expect(html).toContain('<label for="name-input">Your name</label>');
    expect(html).toContain('role="log"');
    expect(html).toContain('<meta name="webchat-socket" content="/webchat/ws">');
    expect(webchatPage({ title: "x", socketPath: "/chat/ws" })).toContain('content="/chat/ws"');
  });

  it("never puts user content through innerHTML", () => {
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("has a CSP naming exactly its inline script and style", () => {
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? "";
    const csp = webchatPageCsp();
    expect(csp).toContain(`script-src '${sha(script)}'`);
    expect(csp).toContain(`style-src '${sha(style)}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
  });
});
