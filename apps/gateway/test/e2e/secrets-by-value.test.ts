import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, leakedForms } from "../../src/testing/index.js";
import { annAsks } from "../support/dm-answers.js";
import { startFakePostgres } from "../support/fake-postgres.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { cliEnv, runChorus } from "../support/loading-cli.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

const NOTICE = "⚠️ Chorus could not answer right now. Please try again in a moment.";

/** A model server's error body that echoes the key it was sent: raw, URL-encoded and base64. */
function echoing(key: string) {
  const b64 = Buffer.from(key).toString("base64");
  const message = `Invalid API key ${key} (sent as ${encodeURIComponent(key)}, ${b64})`;
  return { status: 500, body: { error: { message, type: "server_error", param: key } } } as const;
}

describe.each([
  ["in the config (apiKey)", "openai-compatible", "sk-canary/config+Key=0123456789abcdef"],
  ["from the environment (OPENAI_API_KEY)", "openai", "sk-canary/env+Key=fedcba9876543210"],
])("a model server that echoes the API key %s (real gateway process)", (_, provider, key) => {
  let world: ModelWorld;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    world = await createModelWorld();
    model = await createFakeOpenAI({ apiKey: key });
    const agent = {
      provider,
      baseURL: model.url,
      model: "gpt-x",
      maxRetries: 0,
      timeoutMs: 5_000,
      ...(provider === "openai" ? {} : { apiKey: key }),
    };
    gateway = await startGatewayProcess({
      config: world.config({
        memory: { allowFrom: ["ann"] },
        extra: { agents: { list: [{ id: "main", name: "Chorus", model: agent }] } },
      }),
      ...(provider === "openai" ? { env: { OPENAI_API_KEY: key } } : {}),
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("the log, the owner's /status and the API's answers carry no spelling of the key", async () => {
    model.script(echoing(key));
    expect(await annAsks(world, "hello?")).toBe(NOTICE);
    expect(model.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
    const status = await annAsks(world, "/status");
    expect(status).toMatch(/Last model error .*HTTP 500: Invalid API key \[redacted\]/);
    await eventually(() => expect(gateway.logs().some((l) => l.msg === "the agent could not answer")).toBe(true));
    const logged = gateway.logs().find((l) => l.msg === "the agent could not answer");
    expect(String(logged?.err)).toContain("Invalid API key [redacted]");
    const answers = {
      "/v1/channels": await gateway.call("GET", "/v1/channels"),
      "/v1/nowhere": await gateway.call("GET", `/v1/nowhere/${encodeURIComponent(key)}`),
      "/v1/tools/message": await gateway.call("POST", "/v1/tools/message", {
        action: "send",
        channel: "memory",
        target: key,
        text: "x",
      }),
    };
    expect(answers["/v1/nowhere"].status).toBe(404);
    const places = {
      "gateway output": gateway.output(),
      "/status": status,
      ...Object.fromEntries(Object.entries(answers).map(([path, answer]) => [path, JSON.stringify(answer.json)])),
    };
    for (const [place, text] of Object.entries(places))
      expect({ place, leaks: leakedForms(text, key) }).toEqual({ place, leaks: [] });
  });
});

describe("a PostgreSQL server that echoes the password of state.url", () => {
  it("chorus start fails without any spelling of the password, in its output or its error", async () => {
    const password = "Pg-canary/secret+pw=42";
    const postgres = await startFakePostgres(
      (sent) =>
        `password "${sent}" (base64 ${Buffer.from(sent).toString("base64")}, in the URL ${encodeURIComponent(sent)}) is not valid`,
    );
    const home = await mkdtemp(join(tmpdir(), "chorus-home-"));
    try {
      const url = `postgres://chorus:${encodeURIComponent(password)}@127.0.0.1:${postgres.port}/chorus`;
      await writeFile(
        join(home, "chorus.json"),
        JSON.stringify({ gateway: { port: 0 }, state: { backend: "postgres", url } }),
      );
      const run = await runChorus(["start"], { home, env: cliEnv(home) });
      expect(run.started).toBe(false);
      expect(run.code).toBe(1);
      expect(postgres.passwords).toContain(password);
      expect(run.stderr).toMatch(/is not valid/);
      expect(leakedForms(run.stdout + run.stderr, password)).toEqual([]);
      expect(leakedForms(run.stdout + run.stderr, encodeURIComponent(password))).toEqual([]);
    } finally {
      await postgres.close();
      await removeHome(home);
    }
  });
});
