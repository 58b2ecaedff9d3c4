import { describe, expect, it } from "vitest";
import { parseCommand } from "./parse.js";

describe("parseCommand", () => {
  it.each([
    ["/activation always", { name: "activation", mode: "always" }],
    ["/ACTIVATION Mention", { name: "activation", mode: "mention" }],
    ["  /activation   always \n", { name: "activation", mode: "always" }],
    ["/status", { name: "status" }],
    ["/Status", { name: "status" }],
    ["/verbose on", { name: "verbose", on: true }],
    ["/verbose OFF", { name: "verbose", on: false }],
    ["/think high", { name: "think", level: "high" }],
    ["/think Low", { name: "think", level: "low" }],
    ["/new", { name: "new" }],
    ["/reset", { name: "reset" }],
    ["/compact", { name: "compact" }],
  ])("%j → %j", (text, command) => {
    expect(parseCommand(text)).toEqual(command);
  });

  it.each([
    "/foo",
    "/foo bar",
    "please /status",
    "/status please",
    "/new let's talk about the trip",
    "hello",
    "",
    "/",
    "//status",
    "status",
    "/status/x",
  ])("%j is chat, not a command", (text) => {
    expect(parseCommand(text)).toBeUndefined();
  });

  it("answers bad arguments of a known command with the valid values", () => {
    const maybe = parseCommand("/activation maybe");
    expect(maybe).toMatchObject({ name: "invalid", command: "activation" });
    const reply = (maybe as { reply: string }).reply;
    expect(reply).toContain('"maybe"');
    expect(reply).toContain("/activation mention|always");
    expect(parseCommand("/activation")).toMatchObject({ name: "invalid", command: "activation" });
    expect((parseCommand("/activation") as { reply: string }).reply).toContain("needs a value");
    expect(parseCommand("/activation always now")).toMatchObject({ name: "invalid", command: "activation" });
    expect((parseCommand("/verbose maybe") as { reply: string }).reply).toContain("/verbose on|off");
    const think = parseCommand("/think hard") as { name: string; reply: string };
    expect(think.name).toBe("invalid");
    expect(think.reply).toContain("off, minimal, low, medium, high");
  });

  it("takes /command@bot only when it names this bot", () => {
    expect(parseCommand("/status@ChorusBot", { botUsernames: ["chorusbot"] })).toEqual({ name: "status" });
    expect(parseCommand("/activation@chorusbot always", { botUsernames: ["ChorusBot"] })).toEqual({
      name: "activation",
      mode: "always",
    });
    expect(parseCommand("/status@otherbot", { botUsernames: ["chorusbot"] })).toBeUndefined();
    expect(parseCommand("/status@chorusbot")).toBeUndefined();
  });
});
