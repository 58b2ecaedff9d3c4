import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeReply } from "../../src/testing/index.js";
import { withoutModelAddress } from "../../src/testing/index.js";
import { annAsks } from "../support/dm-answers.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

/** What every chat member is told, whatever failed: short and fixed. */
const NOTICE = "⚠️ Chorus could not answer right now. Please try again in a moment.";

/** A fault the fake model server answers with, and what the owner's /status then says about it. */
const FAULTS: [string, FakeReply, RegExp][] = [
  ["HTTP 500", { status: 500 }, /Last model error \(.+\): E_PLATFORM The model server answered HTTP 500: /],
  [
    "HTTP 429",
    { status: 429 },
    /Last model error \(.+\): E_RATE_LIMITED The model server answered HTTP 429: .*Rate limit/,
  ],
  [
    "garbage",
    { raw: "garbage" },
    /Last model error \(.+\): E_PLATFORM The model server sent a reply that is not a valid/,
  ],
];

describe.each([
  ["non-streaming", false],
  ["streaming", true],
])("the model server fails (%s): a clean error reply, and the gateway keeps going", (_, stream) => {
  let world: ModelWorld;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    world = await createModelWorld();
    // Ann is the owner (named in allowFrom): her /status shows the model's last error.
    gateway = await startGatewayProcess({ config: world.config({ stream, memory: { allowFrom: ["ann"] } }) });
  });
  afterAll(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it.each(FAULTS)(
    "%s: the chat gets the fixed notice, the log and the owner's /status the details, and the next message is answered",
    async (name, fault, status) => {
      world.model.script(fault, { text: `fine again after ${name}` });
      expect(await annAsks(world, `question hitting ${name}`)).toBe(NOTICE);
      const owner = await annAsks(world, "/status");
      expect(owner).toMatch(status);
      expect(owner).not.toContain("127.0.0.1");

      expect(await annAsks(world, `question after ${name}`)).toBe(`fine again after ${name}`);
      expect(gateway.process.exitCode).toBeNull();
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      const channels = await gateway.call("GET", "/v1/channels");
      expect(channels.json.channels.find((c: { id: string }) => c.id === "memory").status.state).toBe("running");
      const logged = gateway.logs().filter((line) => line.msg === "the agent could not answer");
      expect(logged.some((line) => String(line.err).includes(`at ${world.model.url}`))).toBe(true);
      expect(logged.some((line) => owner.includes(withoutModelAddress(String(line.err))))).toBe(true);
      expect(await annAsks(world, "/status")).not.toContain("Last model error");
    },
  );
});
