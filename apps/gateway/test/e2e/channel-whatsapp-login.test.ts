import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeWhatsApp, type FakeWhatsApp } from "@chorus/channel-whatsapp/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig } from "../../src/testing/index.js";
import { type LoginProcess, startChannelLogin } from "../support/channel-login.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { makeHome } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-whatsapp", import.meta.url));
/** Real key generation and Signal sessions on a shared 2-core machine: be patient. */
const PATIENCE = { timeoutMs: 30_000 };
/** How long the command may take to end after printing that the account is linked. */
const EXIT_MS = 15_000;

interface ChannelRow {
  id: string;
  account: string;
  status?: { state?: string };
}

interface StoredCreds {
  me?: { id?: string; lid?: string };
  registered?: boolean;
  account?: unknown;
}

async function credsOf(home: string, account: string): Promise<StoredCreds> {
  return JSON.parse(await readFile(join(home, "state", "whatsapp", account, "auth", "creds.json"), "utf8"));
}

describe("linking WhatsApp with `chorus channels login whatsapp`, then starting the gateway on the same home", () => {
  // Two linked numbers, each on its own WhatsApp: the default account and a `work` account.
  let personal: FakeWhatsApp;
  let work: FakeWhatsApp;
  let model: FakeOpenAI;
  let config: Record<string, unknown>;
  let home: string;
  let gateway: GatewayProcess | undefined;
  const logins: LoginProcess[] = [];

  beforeAll(async () => {
    personal = createFakeWhatsApp({ botPhone: "15550001000", botName: "Chorus Home" });
    work = createFakeWhatsApp({ botPhone: "15550002000", botName: "Chorus Work" });
    await Promise.all([personal.start(), work.start()]);
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    config = {
      plugins: { load: [PLUGIN] },
      channels: {
        whatsapp: {
          groupPolicy: "open",
          accounts: { default: { waWebSocketUrl: personal.url }, work: { waWebSocketUrl: work.url } },
        },
      },
      agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
      gateway: { port: 0 },
    };
    home = await makeHome(config);
  });

  afterAll(async () => {
    for (const login of logins) login.kill();
    await gateway?.stop();
    await model?.close();
    await personal?.close();
    await work?.close();
    if (home) await removeHome(home);
  });

  it("shows the QR code as a string; once the phone scans it, prints the linked number and exits 0", async () => {
    const login = startChannelLogin("whatsapp", home);
    logins.push(login);
    const [, qr] = await login.waitForOutput(/^QR code: (\S+)$/m);
    expect(qr).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#2@/);

    await personal.scanQr(qr as string);
    await login.waitForOutput(/^Linked WhatsApp as \+15550001000\.$/m);
    expect(login.output()).toContain(
      "A running gateway connects this account by itself; otherwise start it with `chorus start`.",
    );
    expect(personal.linkedDevices()).toEqual([1]);
    const creds = await credsOf(home, "default");
    expect(creds.me?.id).toBe("15550001000:1@s.whatsapp.net");
    expect(creds.me?.lid).toBe(`${personal.bot.lid}:1@lid`);
    expect(creds.account).toBeTruthy();
    expect(personal.problems).toEqual([]);
    // Done is done: the command ends once it has said so.
    expect(await login.exit(EXIT_MS)).toBe(0);
  }, 60_000);

  it("--account work --phone prints a pairing code; typing it on the phone links that account", async () => {
    const login = startChannelLogin("whatsapp", home, ["--account", "work", "--phone", "+1 555 000 2000"]);
    logins.push(login);
    const [, shown] = await login.waitForOutput(/^Your pairing code: (\S+)$/m);
    expect(shown).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(login.output()).toContain("Link with phone number instead");
    expect(login.output()).not.toContain("QR code:");
    expect(work.pairingCodeRequests()).toEqual([expect.objectContaining({ phone: "15550002000" })]);

    await work.enterPairingCode((shown as string).replace("-", ""));
    await login.waitForOutput(/^Linked WhatsApp \(account work\) as \+15550002000\./m);
    expect(work.linkedDevices()).toEqual([1]);
    expect(personal.linkedDevices()).toEqual([1]);
    const creds = await credsOf(home, "work");
    expect(creds.me?.id).toBe("15550002000:1@s.whatsapp.net");
    expect(creds.registered).toBe(true);
    expect(work.problems).toEqual([]);
    expect(await login.exit(EXIT_MS)).toBe(0);
  }, 60_000);

  it("the gateway started on that home logs both accounts in with the stored credentials and answers on each", async () => {
    const before = { personal: personal.logins, work: work.logins };
    // The same chorus.json the logins read (startGatewayProcess writes it again).
    const running = await startGatewayProcess({ home, config });
    gateway = running;
    await Promise.all([personal.waitForLogin(before.personal + 1, 30_000), work.waitForLogin(before.work + 1, 30_000)]);
    const states = async () =>
      ((await running.call("GET", "/v1/channels")).json.channels as ChannelRow[])
        .filter((row) => row.id === "whatsapp")
        .map((row) => [row.account, row.status?.state]);
    await eventually(
      async () =>
        expect((await states()).sort()).toEqual([
          ["default", "running"],
          ["work", "running"],
        ]),
      PATIENCE,
    );

    // Each linked device reads and writes its own account's groups.
    for (const [wa, answer] of [
      [personal, "Hello from the personal number."],
      [work, "Hello from the work number."],
    ] as const) {
      const ann = wa.addPerson({ phone: "15550009999", name: "Ann" });
      const group = wa.addGroup({ subject: "Team", participants: [ann.phone] });
      model.script({ text: answer });
      const trigger = wa.personSends({
        from: ann.phone,
        chat: group.id,
        text: `@${wa.bot.phone} hi`,
        mentions: [wa.bot.jid],
      });
      await eventually(
        () => expect(wa.botMessages(group.id).map((m) => [m.text, m.quoted?.stanzaId])).toEqual([[answer, trigger.id]]),
        PATIENCE,
      );
    }
    // No device was linked anew: the gateway used what the logins stored.
    expect(personal.linkedDevices()).toEqual([1]);
    expect(work.linkedDevices()).toEqual([1]);
    expect(personal.problems).toEqual([]);
    expect(work.problems).toEqual([]);
  }, 60_000);
});
