import { spawn } from "node:child_process";
import { waitFor } from "@chorus/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../src/testing/index.js";
import { CLI, removeHome } from "../support/gateway-process.js";
import { cliEnv, makeHome } from "../support/loading-cli.js";
import { groupMessages, type OpenGroupsGateway, startOpenGroupsGateway } from "../support/telegram-open-groups.js";

/*
 * The state backend fails and comes back (issue 35, item 3): a gateway on PostgreSQL takes a burst
 * of Telegram group messages while its database server stops at once (every connection drops) and
 * starts again. The gateway stays up throughout, no message is lost and none is answered twice;
 * while the database is away inbound is not acknowledged (Telegram keeps the updates) and turns wait.
 * Before this, a dropped pooled connection was an uncaught exception: the gateway exited, or the
 * error was blamed on a channel, which was restarted.
 */
const GROUP = -1003100000001;
const ANN = { id: 4201, is_bot: false, first_name: "Ann" };

describe("the state database goes away and comes back", () => {
  let server: TestPostgres | undefined;
  let world: OpenGroupsGateway | undefined;
  afterAll(async () => {
    await world?.close();
    await server?.stop();
    if (world) await removeHome(world.gateway.home);
  });

  it("PostgreSQL stops mid-burst and restarts: the gateway stays up, nothing is lost, nothing is answered twice", async () => {
    server = await startTestPostgres();
    const url = await server.createDatabase("outage");
    world = await startOpenGroupsGateway({
      group: { id: GROUP, title: "Outage" },
      config: { state: { backend: "postgres", url, leaseMs: 2_000 } },
    });
    const running = world.gateway;
    const { sent, send, answered, answersTo } = groupMessages(world.telegram, GROUP, ANN);

    for (let n = 0; n < 10; n++) send(n);
    await waitFor(() => answered().length >= 3, { timeoutMs: 20_000, message: "the first answers" });
    await server.pause();
    for (let n = 10; n < 20; n++) send(n);
    // The outage is said once, and the gateway is still up and serving.
    await waitFor(() => /the state database is unavailable/.test(running.output()), {
      timeoutMs: 15_000,
      message: "the outage in the log",
    });
    expect((await running.call("GET", "/healthz")).status).toBe(200);
    // Not ready while the state is unreachable, and the answer says why.
    const readyz = await fetch(`${running.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.text()).toMatch(/state/);
    await server.resume();
    for (let n = 20; n < 25; n++) send(n);

    await waitFor(() => sent.every((id) => answersTo(id) >= 1), {
      timeoutMs: 60_000,
      intervalMs: 200,
      message: "every message answered",
    }).catch((error: Error) => {
      throw new Error(`${error.message}; unanswered: ${sent.filter((id) => answersTo(id) === 0).join(", ")}`);
    });
    expect(sent.filter((id) => answersTo(id) > 1)).toEqual([]);
    expect(running.output()).toContain("the state database is back");
    expect(running.output()).not.toMatch(/uncaught|restarting the channel|the gateway failed; exiting/i);
    expect(running.output()).not.toContain(server.password);
    expect((await running.call("GET", "/healthz")).status).toBe(200);
    await waitFor(async () => (await fetch(`${running.url}/readyz`)).status === 200, {
      timeoutMs: 10_000,
      message: "ready again",
    });
  }, 120_000);

  it("a start while the database is down waits, saying so, and goes on once it is up", async () => {
    const down = await startTestPostgres();
    const home = await makeHome({
      gateway: { port: 0 },
      state: { backend: "postgres", url: await down.createDatabase("later") },
    });
    let output = "";
    const child = spawn(process.execPath, [CLI, "start"], { env: cliEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await down.pause();
      await waitFor(() => /waiting for the state database: .*unavailable/.test(output) || child.exitCode !== null, {
        timeoutMs: 15_000,
        message: "the waiting line",
      });
      expect(child.exitCode, output).toBeNull();
      expect(output).not.toContain(down.password);
      await down.resume();
      await waitFor(() => /listening on /.test(output) || child.exitCode !== null, {
        timeoutMs: 45_000,
        message: "the start goes on",
      });
      expect(output).toMatch(/listening on /);
    } finally {
      child.kill("SIGKILL");
      await down.stop();
      await removeHome(home);
    }
  }, 120_000);
});
