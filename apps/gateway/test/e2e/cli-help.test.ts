import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_DIR, removeHome } from "../support/gateway-process.js";
import { makeHome, runChorus } from "../support/loading-cli.js";

/** Every command, what its help must say, and the options it must list. */
const COMMANDS: [args: string, description: string, options: string[]][] = [
  ["", "One AI agent in the chat apps people already use.", ["--version", "--help"]],
  [
    "start",
    "start the gateway (with no config: webchat + the offline",
    ["--config <path>", "--verbose", "--port <port>", "--bind <address>"],
  ],
  ["mcp", "the MCP server over stdio", ["--config <path>", "--url <url>", "--token <token>", "--no-start"]],
  ["channels", "list installed channel plugins, their capabilities and", ["--config <path>", "--json"]],
  ["plugins", "install and remove channel plugins in <home>/plugins", ["add <spec>", "remove <name>", "list"]],
  ["plugins add", "install a channel: a first-party id", []],
  ["plugins remove", "uninstall a plugin by package name or channel id", []],
  ["plugins list", "list the plugins installed in <home>/plugins", []],
  ["token", "print the gateway's API token", ["--config <path>", "--webchat"]],
  ["config", "inspect the configuration", ["check [options]"]],
  ["config check", "validate chorus.json (JSON5) and every configured channel's keys", ["--config <path>"]],
  [
    "message",
    "use the message tool through the running gateway",
    ["react [options]", "send [options]", "reactions [options]"],
  ],
  [
    "message react",
    "add, remove or clear the bot's reaction on a message",
    [
      "--channel <id>",
      "--target <conversation>",
      "--message-id <id>",
      "--emoji <emoji>",
      "--remove",
      "--clear-all",
      "--url <url>",
      "--token <token>",
    ],
  ],
  [
    "message send",
    "send a text message",
    ["--channel <id>", "--target <conversation>", "--text <text>", "--reply-to <id>"],
  ],
  [
    "message reactions",
    "list the reactions on a message",
    ["--channel <id>", "--target <conversation>", "--message-id <id>"],
  ],
  ["trace", "what became of one inbound message", ["--config <path>", "--account <name>", "--json"]],
  [
    "doctor",
    "check what cannot work and how to fix it: the config, each agent's model",
    ["--config <path>", "--url <url>", "--token <token>"],
  ],
];

describe("chorus --help", () => {
  let home: string;
  beforeAll(async () => {
    home = await makeHome();
  });
  afterAll(async () => {
    await removeHome(home);
  });

  it.concurrent.each(COMMANDS)("chorus %s --help", async (command, description, options) => {
    const args = command === "" ? [] : command.split(" ");
    const run = await runChorus([...args, "--help"], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: ${["chorus", ...args].join(" ")} \\[options\\]`));
    expect(run.stdout).toContain(description);
    for (const option of [...options, "-h, --help"]) expect(run.stdout).toContain(option);
  });

  it("an unknown command fails with the help after the error", async () => {
    const run = await runChorus(["strat"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: unknown command 'strat'");
    expect(run.stderr).toContain("(Did you mean start?)");
  });

  it("a missing required option names it", async () => {
    const run = await runChorus(["message", "send", "--channel", "webchat", "--target", "lobby"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: required option '--text <text>' not specified");
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(await readFile(join(GATEWAY_DIR, "package.json"), "utf8")) as { version: string };
    const run = await runChorus(["--version"], { home });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});
