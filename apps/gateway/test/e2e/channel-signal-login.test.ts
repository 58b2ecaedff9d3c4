import { fileURLToPath } from "node:url";
import { FakeSignal } from "@chorus/channel-signal/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig } from "../../src/testing/index.js";
import type { LoginProcess } from "../support/channel-login.js";
import { startChannelLogin } from "../support/channel-login.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { makeHome } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-signal", import.meta.url));
const QR = /^QR code: (sgnl:\/\/linkdevice\?\S+)$/m;

describe("linking Signal with `chorus channels login signal`, then starting the gateway on it", () => {
  // The daemon a person runs for linking: signal-cli daemon --http, without -a.
  let signal: FakeSignal;
  let model: FakeOpenAI;
  let home: string;
  let config: Record<string, unknown>;
  let gateway: GatewayProcess | undefined;
  const logins: LoginProcess[] = [];
  const login = (args: string[] = []) => {
    const started = startChannelLogin("signal", home, args);
    logins.push(started);
    return started;
  };

  beforeAll(async () => {
    signal = new FakeSignal({ mode: "multi", bot: { number: "+15550001000", name: "Chorus" } });
    await signal.start();
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    config = {
      plugins: { load: [PLUGIN] },
      channels: { signal: { ...signal.config({ retries: 0 }), dmPolicy: "open" } },
      agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
      gateway: { port: 0 },
    };
    home = await makeHome(config);
  });

  afterAll(async () => {
    for (const started of logins) started.kill();
    await gateway?.stop();
    await model?.close();
    await signal?.close();
    if (home) await removeHome(home);
  });

  it("fails clearly when the code expires before the phone scans it", async () => {
    const expiring = login();
    const [, uri] = await expiring.waitForOutput(QR);
    await eventually(() => expect(signal.linking.waiting()).toEqual([uri]));
    signal.linking.expire(uri as string);
    expect(await expiring.exit()).not.toBe(0);
    expect(expiring.output()).toContain("the link code expired before the phone scanned it");
    expect(expiring.output()).toContain("scan the new code within a minute");
  });

  it("fails clearly when the phone refuses the link", async () => {
    const refused = login();
    const [, uri] = await refused.waitForOutput(QR);
    await eventually(() => expect(signal.linking.waiting()).toEqual([uri]));
    signal.linking.refuse(uri as string);
    expect(await refused.exit()).not.toBe(0);
    expect(refused.output()).toContain("the phone did not link this device");
    expect(signal.accounts.size).toBe(0);
  });

  it("shows the link URI as a string; once the phone scans it, prints the linked number and exits 0", async () => {
    const linking = login(["--device-name", "Chorus kitchen"]);
    const [, uri] = await linking.waitForOutput(QR);
    expect(linking.output()).toContain("Linked devices → Link new device");
    await eventually(() => expect(signal.linking.waiting()).toEqual([uri]));
    signal.linking.scan(uri as string, "+15550001000");
    await linking.waitForOutput(/^Linked Signal as \+15550001000\.$/m);
    expect(await linking.exit()).toBe(0);
    expect(signal.linking.linkedNames).toEqual(["Chorus kitchen"]);
  });

  it("the gateway started on that home answers as the linked number", async () => {
    gateway = await startGatewayProcess({ home, config });
    await eventually(() => expect(signal.events.open).toBe(1), { timeoutMs: 15_000 });
    const ann = signal.state.addPerson({ number: "+15550002222", name: "Ann" });
    model.script({ text: "Hello from Signal." });
    signal.people.sends({ from: ann, text: "hi" });
    await eventually(() => expect(signal.sentTo(ann.uuid).map((m) => m.text)).toEqual(["Hello from Signal."]), {
      timeoutMs: 15_000,
    });
  });
});
