import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, removeHome } from "../support/gateway-process.js";
import { makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";

const WHATSAPP_PLUGIN = fileURLToPath(new URL("../../../../packages/channel-whatsapp", import.meta.url));

// The WhatsApp login itself runs against the fake WhatsApp in channel-whatsapp-login.test.ts;
// these are the command's own refusals, made before any connection.
describe("chorus channels login", () => {
  const homes: string[] = [];
  afterAll(async () => {
    await Promise.all(homes.map(removeHome));
  });
  const home = async () => {
    const dir = await makeHome({
      plugins: { load: [join(FIXTURES, "memory-channel")] },
      channels: { memory: { baseUrl: "http://127.0.0.1:9", token: "t" } },
    });
    homes.push(dir);
    return dir;
  };

  it("says a token-configured channel has nothing to log in to", async () => {
    const run = await runChorus(["channels", "login", "memory"], { home: await home() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error E_UNSUPPORTED:");
    expect(run.stderr).toContain("does not link by logging in: its credentials go into channels.memory in the config");
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("names the configured accounts when --account names another", async () => {
    const dir = await makeHome({
      plugins: { load: [WHATSAPP_PLUGIN] },
      channels: { whatsapp: { accounts: { home: {}, shop: {} } } },
    });
    homes.push(dir);
    const run = await runChorus(["channels", "login", "whatsapp", "--account", "work"], { home: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error E_INVALID_INPUT: channels.whatsapp has no account "work"; configured: home, shop.',
    );
  });

  it("offers the login options WhatsApp declares when given one it does not take", async () => {
    const dir = await makeHome({ plugins: { load: [WHATSAPP_PLUGIN] }, channels: { whatsapp: {} } });
    homes.push(dir);
    const run = await runChorus(["channels", "login", "whatsapp", "--pin", "1234"], { home: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error E_INVALID_INPUT: unknown login option "--pin": WhatsApp takes --phone <number> (link with a pairing code for this phone number (country code first) instead of a QR code)',
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("points at `chorus plugins add` for a channel that is not installed", async () => {
    // Not whatsapp: the gateway's own node_modules hold every workspace channel (its dev dependencies).
    const run = await runChorus(["channels", "login", "matrix"], { home: await home() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No installed plugin provides channel "matrix"');
    expect(run.stderr).toContain("chorus plugins add <its npm package, tarball or directory>");
    expect(run.stderr).not.toContain("chorus-channel-matrix");
  });
});
