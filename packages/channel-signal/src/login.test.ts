import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type ChannelLoginResult, silentLogger } from "@chorus/core";
import { closedPort, validatePluginConfig, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { FakeSignal, fakeSignalCli } from "./testing/index.js";

// `chorus channels login signal` as the plugin sees it: a daemon in multi-account mode, the QR
// code, the phone scanning it (or not).
let fake: FakeSignal;
let shown: string[];
let printed: string[];
let abort: AbortController;

beforeEach(async () => {
  fake = new FakeSignal({ mode: "multi" });
  await fake.start();
  shown = [];
  printed = [];
  abort = new AbortController();
});

afterEach(async () => {
  abort.abort();
  await fake.close();
});

async function login(
  options: Record<string, string> = {},
  block: Record<string, unknown> = fake.config({ retries: 0 }),
): Promise<ChannelLoginResult> {
  const config = await validatePluginConfig(signalChannel, block);
  return (signalChannel.login as NonNullable<typeof signalChannel.login>)({
    config,
    accountId: "default",
    store: new MemoryStore(),
    stateDir: "/nonexistent",
    logger: silentLogger,
    signal: abort.signal,
    options,
    showQr: (data) => shown.push(data),
    print: (line) => printed.push(line),
  });
}

/** The link URI the login shows, once it waits for the phone. */
async function waitingLink(): Promise<string> {
  await waitFor(() => fake.linking.waiting().length === 1);
  return fake.linking.waiting()[0] as string;
}

describe("linking Signal", () => {
  it("shows the sgnl://linkdevice URI as a QR code and resolves once the phone scanned it", async () => {
    const linking = login();
    const uri = await waitingLink();
    expect(shown).toEqual([uri]);
    expect(uri).toMatch(/^sgnl:\/\/linkdevice\?uuid=/);
    expect(printed).toContain(
      "On the phone: Signal → Settings → Linked devices → Link new device, then scan the code.",
    );
    fake.linking.scan(uri, fake.account);
    expect(await linking).toEqual({ account: fake.account });
    expect(fake.linking.linkedNames).toEqual(["Chorus"]);
    expect(fake.calls("finishLink")).toEqual([{ deviceLinkUri: uri, deviceName: "Chorus" }]);
    expect(printed.at(-1)).toBe("Start the gateway (chorus start), or restart it, to use this number.");
  });

  it("names the device after --device-name", async () => {
    const linking = login({ "device-name": "Kitchen bot" });
    fake.linking.scan(await waitingLink(), fake.account);
    await linking;
    expect(fake.linking.linkedNames).toEqual(["Kitchen bot"]);
  });

  it("fails clearly when the code expires, and when the phone refuses the link", async () => {
    const expiring = login();
    fake.linking.expire(await waitingLink());
    await expect(expiring).rejects.toMatchObject({
      code: "E_AUTH",
      message: "the link code expired before the phone scanned it",
      hint: expect.stringContaining("chorus channels login signal"),
    });
    const refused = login();
    fake.linking.refuse(await waitingLink());
    await expect(refused).rejects.toMatchObject({
      code: "E_AUTH",
      message: "the phone did not link this device (Link request error: Connection closed! (IOException))",
    });
    expect(fake.accounts.size).toBe(0);
  });

  it("says so when the number is linked already, without a new code", async () => {
    fake.accounts.add(fake.account);
    expect(await login()).toEqual({ account: fake.account });
    expect(shown).toEqual([]);
    expect(printed[0]).toMatch(/^Signal is already linked as \+15550001000\./);
  });

  it("explains that a daemon started with -a cannot link", async () => {
    const single = new FakeSignal();
    await single.start();
    try {
      await expect(login({}, single.config({ retries: 0 }))).rejects.toMatchObject({
        code: "E_UNSUPPORTED",
        message: `the signal-cli daemon at ${single.url} serves one account and cannot link`,
        hint: expect.stringContaining("without -a"),
      });
    } finally {
      await single.close();
    }
  });

  it("with autoStart, runs signal-cli without -a for the time of the login, and stops it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "signal-login-"));
    try {
      const bot = { number: "+15550001000", uuid: randomUUID(), name: "Chorus" };
      const cli = await fakeSignalCli(dir, { bot, linked: false });
      const httpUrl = `http://127.0.0.1:${await closedPort()}`;
      const linking = login({}, { account: bot.number, httpUrl, autoStart: true, cliPath: cli.path, retries: 0 });
      await waitFor(() => shown.length === 1, { timeoutMs: 20_000 });
      // The phone scans once the login waits for it (finishLink may follow the QR by a moment).
      let scanned: unknown;
      await waitFor(
        async () => {
          const answer = await fetch(`${httpUrl}/__fake/scan`, { method: "POST" });
          scanned = await answer.json();
          return answer.ok;
        },
        { timeoutMs: 10_000, message: "finishLink waiting for the scan" },
      );
      expect(scanned).toEqual({ uri: shown[0], names: ["Chorus"] });
      expect(await linking).toEqual({ account: bot.number });
      const [start] = (await readFile(cli.log, "utf8")).split("\n").map((line) => JSON.parse(line || "{}"));
      expect(start.args.slice(0, 3)).toEqual(["daemon", "--http", httpUrl.replace("http://", "")]);
      // The login's daemon is gone with it.
      await expect(fetch(`${httpUrl}/api/v1/check`)).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("declares its option for the CLI", () => {
    expect(signalChannel.loginOptions).toEqual([
      {
        name: "device-name",
        value: "<name>",
        description: 'how the phone lists this linked device (default "Chorus")',
      },
    ]);
  });
});
