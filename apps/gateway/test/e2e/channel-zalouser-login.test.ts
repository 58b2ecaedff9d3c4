import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeZalo, type FakeZalo } from "@chorus/channel-zalouser/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoginProcess, startChannelLogin } from "../support/channel-login.js";
import { removeHome } from "../support/gateway-process.js";
import { makeHome } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-zalouser", import.meta.url));
/** The bytes every PNG starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("`chorus channels login zalouser` when the QR code is not confirmed", () => {
  let zalo: FakeZalo;
  let home: string;
  const logins: LoginProcess[] = [];

  beforeAll(async () => {
    zalo = createFakeZalo({ bot: { id: "2153466178471249562", name: "Chorus" } });
    await zalo.start();
    home = await makeHome({
      plugins: { load: [PLUGIN] },
      channels: { zalouser: { apiBase: zalo.url, qrTimeoutMs: 3_000 } },
    });
  });

  afterAll(async () => {
    for (const login of logins) login.kill();
    await zalo?.close();
    if (home) await removeHome(home);
  });

  const start = async () => {
    const login = startChannelLogin("zalouser", home);
    logins.push(login);
    const [, qr] = await login.waitForOutput(/^QR code: (\S+)$/m);
    return { login, qr: qr as string };
  };

  it("refused on the phone: fails saying so, exits non-zero, and stores no session", async () => {
    const { login, qr } = await start();
    zalo.scanQr(qr);
    await login.waitForOutput(/^Scanned by Chorus/m);
    zalo.declineQr(qr);
    await login.waitForOutput(/The login was refused on the phone\./);
    expect(await login.exit(15_000)).not.toBe(0);
    expect(login.output()).toContain("chorus channels login zalouser");
    expect(login.output()).not.toContain("Linked Zalo Personal");
    expect([...zalo.state.sessions.values()]).toEqual([]);
  }, 30_000);

  it("expired at Zalo before the scan: fails saying the login ended, exits non-zero", async () => {
    const { login, qr } = await start();
    zalo.expireQr(qr);
    await login.waitForOutput(/Zalo ended the QR login before it was confirmed/);
    expect(await login.exit(15_000)).not.toBe(0);
    expect(login.output()).not.toContain("Linked Zalo Personal");
  }, 30_000);

  it("nobody scans within qrTimeoutMs: fails saying the QR code expired; the PNG it showed is on disk", async () => {
    const { login } = await start();
    const [, png] = await login.waitForOutput(/^The QR code is also saved as (\S+)$/m);
    expect((await readFile(png as string)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(png).toBe(join(home, "state", "zalouser", "default", "login-qr.png"));
    await login.waitForOutput(/The QR code expired before it was scanned and confirmed on the phone\./, 15_000);
    expect(await login.exit(15_000)).not.toBe(0);
    expect([...zalo.state.sessions.values()]).toEqual([]);
  }, 30_000);
});
