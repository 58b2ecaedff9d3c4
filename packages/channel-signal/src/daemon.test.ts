import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedPort, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { type FakeCli, fakeSignalCli } from "./testing/index.js";

// autoStart against a fake `signal-cli` executable: a Node script that runs the fake daemon on
// the port it is given. The channel starts it, the test kills it, the channel starts it again.
const BOT = { number: "+15550001000", uuid: randomUUID(), name: "Chorus" };
const ANN = { uuid: randomUUID(), number: "+15550002222", name: "Ann" };
const PATIENCE = { timeoutMs: 20_000 };

let dir: string;
let cli: FakeCli;
let httpUrl: string;
let running: RunningChannel | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "signal-daemon-"));
  cli = await fakeSignalCli(dir, { bot: BOT, people: [ANN] });
  httpUrl = `http://127.0.0.1:${await closedPort()}`;
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

const config = (extra: Record<string, unknown> = {}) => ({
  account: BOT.number,
  httpUrl,
  autoStart: true,
  cliPath: cli.path,
  startupTimeoutMs: 20_000,
  reconnectMinMs: 50,
  reconnectMaxMs: 500,
  ...extra,
});
const starts = async () =>
  (await readFile(cli.log, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { pid: number; args: string[] });
const personSends = (text: string) =>
  fetch(`${httpUrl}/__fake/sends`, { method: "POST", body: JSON.stringify({ from: ANN.uuid, text }) });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("autoStart", () => {
  it("starts `signal-cli -a <account> daemon --http`, logs its output at debug level, and receives through it", async () => {
    running = await startChannel(signalChannel, { config: config() });
    const [start] = await starts();
    expect(start?.args).toEqual([
      "-a",
      BOT.number,
      "daemon",
      "--http",
      httpUrl.replace("http://", ""),
      "--receive-mode",
      "on-connection",
      "--no-receive-stdout",
    ]);
    expect(running.instance.status()).toEqual({
      state: "running",
      detail: `linked as ${BOT.number} (Chorus); events from ${httpUrl}; signal-cli pid ${start?.pid}`,
    });
    await waitFor(() => running?.logs.at("debug").some((r) => r.message.includes("Started HTTP server")), PATIENCE);
    expect(running.logs.at("debug").map((r) => r.message)).toContain(
      `signal-cli: INFO  DaemonCommand - Starting daemon in single-account mode for ${BOT.number}`,
    );
    await personSends("hello through the daemon");
    await running.waitForEvent((e) => e.type === "message" && e.text === "hello through the daemon", 10_000);
  }, 30_000);

  it("starts the daemon again with backoff when it dies, and the event stream follows", async () => {
    running = await startChannel(signalChannel, { config: config() });
    const [first] = await starts();
    process.kill(first?.pid as number, "SIGKILL");
    await waitFor(async () => (await starts()).length === 2, PATIENCE);
    expect(running.logs.at("warn").map((r) => r.message)).toContainEqual(
      expect.stringMatching(/^signal: signal-cli daemon exited \(signal SIGKILL\); restarting in \d+ ms$/),
    );
    await waitFor(() => running?.instance.status().state === "running", PATIENCE);
    await personSends("after the restart");
    await running.waitForEvent((e) => e.type === "message" && e.text === "after the restart", 10_000);
    const second = (await starts())[1]?.pid as number;
    await running.stop();
    running = undefined;
    expect(alive(second)).toBe(false);
  }, 40_000);

  it("names cliPath and how to install signal-cli when it is missing", async () => {
    const missing = join(dir, "no-such-signal-cli");
    const error = await startChannel(signalChannel, { config: config({ cliPath: missing }) }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_INVALID_INPUT",
      message: `signal-cli could not be started: "${missing}" was not found`,
      hint: expect.stringContaining("Install signal-cli"),
    });
    expect((error as { hint: string }).hint).toContain("channels.signal.cliPath");
  });

  it("fails clearly when signal-cli exits before it answers (an account it does not have)", async () => {
    const error = await startChannel(signalChannel, { config: config({ account: "+15559999999" }) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "E_PLATFORM", message: "signal-cli exited (code 1) before it answered" });
  }, 30_000);

  it("refuses to start a second daemon where one already answers", async () => {
    running = await startChannel(signalChannel, { config: config() });
    const error = await startChannel(signalChannel, { config: config() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_INVALID_INPUT", message: `something already answers at ${httpUrl}` });
    expect(await starts()).toHaveLength(1);
  }, 30_000);
});
