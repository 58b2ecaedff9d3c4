import { describe, expect, it } from "vitest";
import { parseClientFrame } from "./protocol.js";

function problem(raw: string): string {
  try {
    parseClientFrame(raw);
  } catch (error) {
    expect(error).toMatchObject({ code: "E_INVALID_INPUT" });
    return (error as Error).message;
  }
  throw new Error(`${raw} was accepted`);
}

describe("parseClientFrame", () => {
  it("accepts every client frame", () => {
    expect(parseClientFrame('{"type":"hello","name":"Ada","userId":"u_123456"}')).toEqual({
      type: "hello",
      name: "Ada",
      userId: "u_123456",
    });
    expect(parseClientFrame('{"type":"join","room":"lobby"}')).toEqual({ type: "join", room: "lobby" });
    expect(parseClientFrame('{"type":"message","room":"lobby","text":"hi","replyTo":"m_1"}')).toMatchObject({
      replyTo: "m_1",
    });
    expect(parseClientFrame('{"type":"react","messageId":"m_1","emoji":"👍","remove":true}')).toMatchObject({
      remove: true,
    });
    expect(parseClientFrame('{"type":"typing","room":"lobby","on":false}')).toMatchObject({ on: false });
  });

  it("names what is wrong", () => {
    expect(problem("{nope")).toMatch(/^frame is not JSON/);
    expect(problem("[1]")).toMatch(/JSON object with a type/);
    expect(problem('{"type":"shout"}')).toBe('unknown frame type "shout"');
    expect(problem('{"text":"hi"}')).toBe("unknown frame type (missing)");
    expect(problem('{"type":"message","room":"lobby"}')).toMatch(/^invalid message frame: text: /);
    expect(problem('{"type":"react","messageId":"m_1","emoji":""}')).toBe("invalid react frame: emoji: emoji is empty");
    expect(problem('{"type":"join","room":"lobby","extra":1}')).toMatch(/invalid join frame: .*extra/);
    expect(problem('{"type":"typing","room":"lobby","on":"yes"}')).toMatch(/^invalid typing frame: on: /);
  });
});
