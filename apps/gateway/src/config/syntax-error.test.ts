import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.js";
import { parseConfigText } from "./load.js";

/** The one issue `parseConfigText` reports for `text`. */
function syntaxError(text: string): string {
  try {
    parseConfigText(text, "/x/chorus.json");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    expect(error.issues).toHaveLength(1);
    return error.issues[0]?.message ?? "";
  }
  throw new Error("expected a syntax error");
}

describe("a JSON5 syntax error says what was expected and the likely cause", () => {
  it("a missing comma: the value before it, its line, and both lines with a caret", () => {
    expect(syntaxError("{\n  gateway: { port: 7800 \n  channels: {}\n}\n")).toBe(
      [
        'syntax error at line 3, column 3: expected "," or "}" after the value of gateway.port (line 2) — is a comma missing at the end of line 2?',
        "    2 |   gateway: { port: 7800 ",
        "    3 |   channels: {}",
        "      |   ^",
      ].join("\n"),
    );
    expect(syntaxError('{ agents: { list: [ { id: "a" } { id: "b" } ] } }').split("\n")[0]).toBe(
      'syntax error at line 1, column 33: expected "," or "]" after item 1 of agents.list, found "{"',
    );
  });

  it("a closing bracket of the wrong kind names the bracket it should close", () => {
    expect(syntaxError('{ "gateway": { "port": 7800, }, ]')).toBe(
      [
        'syntax error at line 1, column 33: expected "}" to close the object opened at line 1, found "]"',
        '    1 | { "gateway": { "port": 7800, }, ]',
        "      |                                 ^",
      ].join("\n"),
    );
    expect(syntaxError("{ a: [1, 2 }")).toContain('expected "]" to close the list opened at line 1, found "}"');
    expect(syntaxError("{ a: 1 } }")).toContain('found "}" after the end of the config');
  });

  it("the end of the file inside an object points at the bracket left open", () => {
    expect(syntaxError("{\n  gateway: { port: 80 \n")).toBe(
      [
        'syntax error at line 3, column 1: the file ends inside the object opened at line 2: expected "}" to close it (2 brackets are still open)',
        "    2 |   gateway: { port: 80 ",
        "      |            ^",
      ].join("\n"),
    );
    expect(syntaxError("{ a: 1 /* note")).toContain("the comment that starts at line 1 is not closed: end it with */");
  });

  it("text without quotes, a key that needs them, a string left open, a comma too many", () => {
    expect(syntaxError("{ model: gpt-4o }")).toContain(
      'expected a value for model, found gpt-4o — text needs quotes: "gpt-4o"',
    );
    expect(syntaxError("{ baseURL: http://127.0.0.1:9/v1, }")).toContain('text needs quotes: "http://127.0.0.1:9/v1"');
    expect(syntaxError("{ a-b: 1 }")).toContain('the key "a-b" needs quotes');
    expect(syntaxError('{ a: "abc\n, b: 1 }')).toContain("the string that starts at line 1 is not closed");
    expect(syntaxError("{ a: 1, , }")).toContain('found "," — is there a comma too many?');
    expect(syntaxError("{ gateway port: 1 }")).toContain('expected ":" after the key "gateway", found the key "port"');
  });

  it("never shows a secret: not in the message, not on the lines shown", () => {
    const quoted = syntaxError('{\n  botToken: "123:SECRETVALUE"\n  x: 1 }');
    expect(quoted).toContain("    2 |   botToken: ***\n");
    const bare = syntaxError("{ channels: { telegram: { botToken: 12345:SECRETVALUE } } }");
    expect(bare).toContain("after the value of channels.telegram.botToken");
    expect(bare).toContain("if the value is text, put it in quotes");
    const word = syntaxError("{ channels: { telegram: { botToken: SECRETVALUE } } }");
    expect(word).toContain("expected a value for channels.telegram.botToken: text needs quotes");
    const url = syntaxError('{ state: { url: "postgres://u:SECRETVALUE@db/x" x: 1 } }');
    expect(url).toContain('"postgres://***@db/x"');
    for (const message of [quoted, bare, word, url]) {
      expect(message).not.toContain("SECRETVALUE");
      expect(message).not.toContain("12345");
    }
  });

  it("a long line is cut around the caret", () => {
    const text = `{ ${Array.from({ length: 40 }, (_, i) => `k${i}: ${i}`).join(", ")} oops: 1 }`;
    const [, line, caret] = syntaxError(text).split("\n");
    expect(line?.length).toBeLessThan(120);
    expect(line?.indexOf("oops")).toBe(caret?.indexOf("^"));
  });
});
