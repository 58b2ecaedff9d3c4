import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type ChannelLoginContext, type ChannelLoginResult, silentLogger } from "@chorus/core";
import { eventually, validatePluginConfig } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ZalouserConfig, zalouserChannel } from "./index.js";
import { QR_FILE } from "./login.js";
import { readQrPng } from "./qr-image.js";
import { readSession } from "./session.js";
import { createFakeZalo, type FakeZalo } from "./testing/index.js";

let fake: FakeZalo;
let stateDir: string;
let store: MemoryStore;
let printed: string[];
let shown: string[];

beforeEach(async () => {
  fake = createFakeZalo();
  await fake.start();
  stateDir = await mkdtemp(join(tmpdir(), "zalouser-login-"));
  store = new MemoryStore();
  printed = [];
  shown = [];
});

afterEach(async () => {
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** `chorus channels login zalouser`, as the CLI calls the plugin. */
async function login(config: Record<string, unknown> = {}, signal = new AbortController().signal) {
  const ctx: ChannelLoginContext<ZalouserConfig> = {
    config: await validatePluginConfig(zalouserChannel, fake.config(config)),
    accountId: "default",
    store,
    stateDir,
    logger: silentLogger,
    signal,
    options: {},
    showQr: (data) => shown.push(data),
    print: (line) => printed.push(line),
  };
  return (zalouserChannel.login as (c: typeof ctx) => Promise<ChannelLoginResult>)(ctx);
}

describe("the QR login", () => {
  it("shows the text of Zalo's QR image, saves the PNG, and after scan and confirmation stores the session", async () => {
    const done = login();
    await eventually(() => expect(shown).toHaveLength(1));
    expect(shown[0]).toBe(fake.qr.find().text);
    const png = join(stateDir, QR_FILE);
    await eventually(() => expect(printed).toContain(`The QR code is also saved as ${png}`));
    expect(readQrPng((await readFile(png)).toString("base64"))).toBe(shown[0]);
    fake.scanQr(shown[0]);
    await eventually(() => expect(printed).toContain(`Scanned by ${fake.bot.name}: confirm the login on your phone.`));
    fake.confirmQr();
    expect(await done).toEqual({ account: `${fake.bot.name} (${fake.bot.id})` });
    const session = await readSession(store);
    const [zaloSession] = fake.state.sessions.values();
    expect(session).toMatchObject({ uid: fake.bot.id, name: fake.bot.name, imei: zaloSession?.imei });
    expect(session?.cookies.map((c) => [c.key, c.value]).sort()).toEqual([
      ["zpsid", zaloSession?.zpsid],
      ["zpw_sek", zaloSession?.sek],
    ]);
    expect(fake.problems).toEqual([]);
    // The login pair ran once with the new session, as the running channel will.
    expect(fake.logins).toBe(1);
  });

  it("refused on the phone: E_AUTH saying so, nothing stored", async () => {
    const done = login();
    await eventually(() => expect(shown).toHaveLength(1));
    fake.scanQr();
    fake.declineQr();
    await expect(done).rejects.toMatchObject({ code: "E_AUTH", message: "The login was refused on the phone." });
    expect(await readSession(store)).toBeUndefined();
  });

  it("not scanned within qrTimeoutMs: E_AUTH saying the QR code expired", async () => {
    await expect(login({ qrTimeoutMs: 1_000 })).rejects.toMatchObject({
      code: "E_AUTH",
      message: "The QR code expired before it was scanned and confirmed on the phone.",
    });
  });

  it("Ctrl-C while waiting: cancelled, nothing stored", async () => {
    const abort = new AbortController();
    const done = login({}, abort.signal);
    await eventually(() => expect(shown).toHaveLength(1));
    abort.abort();
    await expect(done).rejects.toMatchObject({ code: "E_AUTH", message: "The login was cancelled." });
    expect(await readSession(store)).toBeUndefined();
  });

  it("Zalo unreachable: a retryable E_PLATFORM naming it", async () => {
    await fake.close();
    await expect(login()).rejects.toMatchObject({ code: "E_PLATFORM", retryable: true });
  });
});
