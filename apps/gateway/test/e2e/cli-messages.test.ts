// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests write literal ${NAME} references into configs
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { removeHome } from "../support/gateway-process.js";
import { freePort, makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";

/*
 * Each confusing message the CLI used to print, now saying what is wrong and what to do, checked
 * through the built `chorus` (nothing here reaches the internet: model URLs and servers are local).
 */

const TELEGRAM_PLUGIN = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const homes: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(homes.splice(0).map(removeHome));
});

async function homeWith(text?: string): Promise<{ home: string; file: string }> {
  const home = await makeHome();
  homes.push(home);
  const file = join(home, "chorus.json");
  if (text !== undefined) await writeFile(file, text);
  return { home, file };
}

/** A server on 127.0.0.1 answering every request with `status` and `body` (`type` as its content type). */
async function answering(status: number, type: string, body: string): Promise<number> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { "content-type": type });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("wrong types, typos, unset variables: what was expected and what to do", () => {
  it("a bot token written as a number: expected a string, got a number, put it in quotes — never the digits", async () => {
    const plugins = JSON.stringify([TELEGRAM_PLUGIN]);
    const { home } = await homeWith(
      `{ channels: { telegram: { botToken: 987654321 } }, plugins: { load: ${plugins} } }`,
    );
    const run = await runChorus(["config", "check"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "✗ channels.telegram.botToken: expected a string (the token @BotFather gave you, or an environment variable reference), got a number (put it in quotes)\n",
    );
    expect(run.stdout).not.toContain("required");
    expect(run.stdout + run.stderr).not.toContain("987654321");
  });

  it("a misspelt provider key is named; doctor does not tick the demo model in its place", async () => {
    const { home, file } = await homeWith(
      '{ agents: { list: [ { id: "main", model: { provder: "openai-compatible", model: "x", baseURL: "http://127.0.0.1:9/v1" } } ] } }',
    );
    const line =
      '✗ agents.list[0].model.provder: unknown key "provder" (did you mean "provider"?); provider is missing: expected one of "demo", "openai-compatible", "openai", "anthropic", "google", "ollama", "external"';
    const check = await runChorus(["config", "check"], { home });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`${line}\n    fix: edit agents.list[0].model.provder in ${file}\n`);

    const doctor = await runChorus(["doctor"], { home });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(line);
    expect(doctor.stdout).toContain(
      "✗ agent at agents.list[0]: cannot run until the error above is fixed, so its model is not checked\n",
    );
    expect(doctor.stdout).not.toMatch(/✓ agent/);
    expect(doctor.stdout).not.toContain("the offline demo model");
  });

  it("an unset key variable: set it in the gateway's environment; its model server is not probed meanwhile", async () => {
    const dead = await freePort();
    const { home } = await homeWith(
      `{ agents: { list: [ { id: "main", model: { provider: "openai", model: "gpt-4o", apiKey: "\${OPENAI_API_KEY}", baseURL: "http://127.0.0.1:${dead}/v1" } } ] } }`,
    );
    const run = await runChorus(["doctor"], { home, env: { OPENAI_API_KEY: undefined } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        "✗ agents.list[0].model.apiKey: environment variable OPENAI_API_KEY is not set",
        "    fix: set OPENAI_API_KEY in the gateway's environment (export OPENAI_API_KEY=… or the service's environment file)",
        "✗ agent main: cannot run until OPENAI_API_KEY is set, so its model server is not probed",
      ].join("\n"),
    );
    expect(run.stdout).not.toContain("unreachable");
    expect(run.stdout).not.toContain("fix: edit agents.list[0].model.apiKey");
  });
});

describe("chorus doctor: who answers at the gateway's address", () => {
  it("another program (a 404 page) is named as not a Chorus gateway, with what to do — not a token problem", async () => {
    const port = await answering(404, "text/html", "<html><body>Error 404: File not found</body></html>");
    const { home, file } = await homeWith(`{ gateway: { port: ${port} } }`);
    const run = await runChorus(["doctor"], { home });
    expect(run.code).toBe(1);
    const url = `http://127.0.0.1:${port}`;
    expect(run.stdout).toContain(
      [
        `✗ something that is not a Chorus gateway answers at ${url}: HTTP 404 without JSON to GET /v1/channels`,
        `    fix: stop the program that listens at ${url}, move the gateway to a free port (gateway.port in ${file}), or pass --url with the gateway's address`,
      ].join("\n"),
    );
    expect(run.stdout).not.toContain("token");
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_LINE);
  });

  it("a Chorus gateway's 401 is a token problem", async () => {
    const refusal = {
      ok: false,
      error: { code: "E_AUTH", message: "missing or wrong bearer token (gateway.auth.token)" },
    };
    const port = await answering(401, "application/json", JSON.stringify(refusal));
    const { home } = await homeWith(`{ gateway: { port: ${port} } }`);
    const run = await runChorus(["doctor"], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        "✗ the running gateway refused the status request: missing or wrong bearer token (gateway.auth.token)",
        "    fix: pass the right token (--token or CHORUS_TOKEN)",
      ].join("\n"),
    );
  });
});

describe("no config, channels without their plugin, syntax errors", () => {
  it("no config file: doctor says once what starts and how to configure, with no warning and no fix", async () => {
    const { home, file } = await homeWith();
    const run = await runChorus(["doctor"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `✓ no config file at ${file}: the gateway starts the webchat with the offline demo agent (create the file, JSON5, to configure channels and agents)\n`,
    );
    expect(run.stdout.split("\n").filter((line) => line.includes("config"))).toHaveLength(1);
    expect(run.stdout).not.toMatch(/^! /m);
    expect(run.stdout).not.toContain("fix:");
  });

  it("chorus channels lists a configured channel whose plugin is missing, with the command when there is one", async () => {
    const { home } = await homeWith(
      '{ channels: { slack: { botToken: "xoxb-1", appToken: "xapp-1" }, matrix: { homeserver: "x" } } }',
    );
    const run = await runChorus(["channels"], { home });
    expect(run.code).toBe(0);
    const row = (id: string) => run.stdout.split("\n").find((line) => line.startsWith(`${id} `));
    expect(row("slack")).toMatch(
      /^slack +\(not installed\) +configured — its plugin is missing: chorus plugins add slack$/,
    );
    expect(row("matrix")).toMatch(/^matrix +\(not installed\) +configured — no installed plugin provides it$/);
    expect(run.stdout).not.toContain("xoxb-1");
  });

  it("a syntax error says what was expected there and shows the line with a caret", async () => {
    const missingComma = await homeWith("{\n  gateway: { port: 7800 \n  channels: {}\n}\n");
    const comma = await runChorus(["config", "check"], { home: missingComma.home });
    expect(comma.code).toBe(1);
    expect(comma.stdout).toContain(
      [
        '✗ syntax error at line 3, column 3: expected "," or "}" after the value of gateway.port (line 2) — is a comma missing at the end of line 2?',
        "    2 |   gateway: { port: 7800 ",
        "    3 |   channels: {}",
        "      |   ^",
        `    fix: edit ${missingComma.file}`,
      ].join("\n"),
    );

    const wrongBracket = await homeWith('{ "gateway": { "port": 7800, }, ]');
    const bracket = await runChorus(["doctor"], { home: wrongBracket.home });
    expect(bracket.code).toBe(1);
    expect(bracket.stdout).toContain(
      [
        '✗ syntax error at line 1, column 33: expected "}" to close the object opened at line 1, found "]"',
        '    1 | { "gateway": { "port": 7800, }, ]',
        "      |                                 ^",
      ].join("\n"),
    );
    // Nothing of the file was read: no agent is ticked.
    expect(bracket.stdout).not.toMatch(/✓ agent/);
  });
});
