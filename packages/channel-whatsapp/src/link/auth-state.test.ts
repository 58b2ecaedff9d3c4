import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChorusError } from "@chorus/core";
import { BufferJSON, initAuthCreds, proto } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { saveLinkedCreds } from "../testing/index.js";
import { authDirOf, isLinked, keyFileName, openAuthState } from "./auth-state.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-wa-auth-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openAuthState", () => {
  it("creates the directory and fresh, unlinked credentials", async () => {
    const auth = await openAuthState(join(dir, "auth"));
    expect((await stat(join(dir, "auth"))).isDirectory()).toBe(true);
    expect(isLinked(auth.state.creds)).toBe(false);
    expect(auth.state.creds.noiseKey.public).toHaveLength(32);
  });

  it("saves credentials with their binary keys and reads them back equal", async () => {
    const auth = await openAuthState(dir);
    auth.state.creds.me = { id: "15550001111:7@s.whatsapp.net", lid: "200000000000001:7@lid", name: "Chorus" };
    auth.state.creds.routingInfo = Buffer.from([1, 2, 3, 250]);
    await auth.saveCreds();
    const again = await openAuthState(dir);
    expect(again.state.creds.me).toEqual(auth.state.creds.me);
    expect(Buffer.from(again.state.creds.noiseKey.private)).toEqual(Buffer.from(auth.state.creds.noiseKey.private));
    expect(Buffer.from(again.state.creds.signedPreKey.signature)).toEqual(
      Buffer.from(auth.state.creds.signedPreKey.signature),
    );
    expect(again.state.creds.routingInfo).toEqual(Buffer.from([1, 2, 3, 250]));
    // The file is BufferJSON, readable by Baileys' own multi-file auth state, and private.
    const text = await readFile(join(dir, "creds.json"), "utf8");
    expect(JSON.parse(text, BufferJSON.reviver).registrationId).toBe(auth.state.creds.registrationId);
    expect((await stat(join(dir, "creds.json"))).mode & 0o777).toBe(0o600);
  });

  it("stores keys one file each; binary values, app-state-sync keys and deletions round-trip", async () => {
    const auth = await openAuthState(dir);
    const session = Buffer.from("session-bytes");
    await auth.state.keys.set({
      session: { "15551230001.0": session },
      "pre-key": { "1": { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } },
      "app-state-sync-key": { AAAAAQ: { keyData: Buffer.from([9, 9]), timestamp: 1700000000 } },
      "sender-key": { "120363025246125888@g.us::100000000000001::0": Buffer.from([7]) },
    });
    const reopened = await openAuthState(dir);
    expect((await reopened.state.keys.get("session", ["15551230001.0", "missing"])) as object).toEqual({
      "15551230001.0": session,
    });
    const preKey = (await reopened.state.keys.get("pre-key", ["1"]))["1"];
    expect(Buffer.from(preKey?.private ?? [])).toEqual(Buffer.alloc(32, 2));
    const syncKey = (await reopened.state.keys.get("app-state-sync-key", ["AAAAAQ"])).AAAAAQ;
    expect(syncKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(syncKey?.keyData ?? [])).toEqual(Buffer.from([9, 9]));
    const senderKey = await reopened.state.keys.get("sender-key", ["120363025246125888@g.us::100000000000001::0"]);
    expect(Object.values(senderKey)).toEqual([Buffer.from([7])]);

    await reopened.state.keys.set({ session: { "15551230001.0": null } });
    const third = await openAuthState(dir);
    expect(await third.state.keys.get("session", ["15551230001.0"])).toEqual({});
    expect(await readdir(dir)).not.toContain(keyFileName("session", "15551230001.0"));
  });

  it("concurrent writes of one key leave one whole file with the last value, and no temp files", async () => {
    const auth = await openAuthState(dir);
    const writes = Array.from({ length: 40 }, (_, i) =>
      auth.state.keys.set({ session: { "15551230001.0": Buffer.from(`value ${i} ${"x".repeat(i * 100)}`) } }),
    );
    await Promise.all(writes);
    const file = await readFile(join(dir, keyFileName("session", "15551230001.0")), "utf8");
    expect(Buffer.from(JSON.parse(file, BufferJSON.reviver)).toString()).toBe(`value 39 ${"x".repeat(3900)}`);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a batch of many keys (pre-key upload after linking) is written completely", async () => {
    const auth = await openAuthState(dir);
    const keys = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        String(i + 1),
        { public: Buffer.alloc(32, i), private: Buffer.alloc(32, i) },
      ]),
    );
    await Promise.all([auth.state.keys.set({ "pre-key": keys }), auth.saveCreds()]);
    const ids = Object.keys(keys);
    const back = await (await openAuthState(dir)).state.keys.get("pre-key", ids);
    expect(Object.keys(back).sort()).toEqual([...ids].sort());
  });

  it("clear() deletes credentials and keys, so the next open is unlinked", async () => {
    await saveLinkedCreds(
      dir,
      { ...initAuthCreds(), me: { id: "15550001111:1@s.whatsapp.net" }, registered: true },
      {
        authDir: ".",
      },
    );
    const auth = await openAuthState(dir);
    await auth.state.keys.set({ session: { a: Buffer.from([1]) } });
    expect(isLinked(auth.state.creds)).toBe(true);
    await auth.clear();
    expect((await readdir(dir)).filter((name) => name.endsWith(".json"))).toEqual([]);
    expect(isLinked((await openAuthState(dir)).state.creds)).toBe(false);
    // The socket that was logged out may still store a key or its creds: nothing comes back.
    await auth.state.keys.set({ "device-list": { "15550001111": ["0"] } });
    await auth.saveCreds();
    await auth.settled();
    expect((await readdir(dir)).filter((name) => name.endsWith(".json"))).toEqual([]);
  });

  it("refuses an auth path that is a file, and names unreadable credentials", async () => {
    const file = join(dir, "not-a-dir");
    await writeFile(file, "x");
    await expect(openAuthState(file)).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    await writeFile(join(dir, "creds.json"), "{ half a fi");
    const failure = await openAuthState(dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChorusError);
    expect(failure).toMatchObject({ code: "E_AUTH", message: expect.stringContaining("creds.json") });
  });
});

describe("isLinked", () => {
  it("needs an identity confirmed by QR pairing (account) or a pairing code (registered)", () => {
    const creds = initAuthCreds();
    expect(isLinked(creds)).toBe(false);
    // A pairing code was requested but never entered.
    expect(isLinked({ ...creds, me: { id: "15550001111@s.whatsapp.net", name: "~" } })).toBe(false);
    expect(isLinked({ ...creds, me: { id: "15550001111:3@s.whatsapp.net" }, registered: true })).toBe(true);
    expect(
      isLinked({ ...creds, me: { id: "15550001111:3@s.whatsapp.net" }, account: { details: Buffer.alloc(1) } }),
    ).toBe(true);
  });
});

describe("saveLinkedCreds", () => {
  it("writes where an instance with that stateDir reads: <stateDir>/auth, or the configured authDir", async () => {
    const creds = { ...initAuthCreds(), me: { id: "15550001111:1@s.whatsapp.net" }, registered: true };
    await saveLinkedCreds(dir, creds);
    expect(isLinked((await openAuthState(join(dir, "auth"))).state.creds)).toBe(true);
    await saveLinkedCreds(dir, creds, { authDir: "elsewhere" });
    expect(isLinked((await openAuthState(join(dir, "elsewhere"))).state.creds)).toBe(true);
  });
});

describe("file names", () => {
  it("follow Baileys' layout and escape anything else unsafe", () => {
    expect(keyFileName("session", "15551230001.0")).toBe("session-15551230001.0.json");
    expect(keyFileName("sender-key", "120363@g.us::1::0")).toBe("sender-key-120363@g.us--1--0.json");
    expect(keyFileName("app-state-sync-key", "AB/cd+ef=")).toBe("app-state-sync-key-AB__cd+ef=.json");
    expect(keyFileName("session", "../../etc\\passwd")).toBe("session-..__..__etc%5Cpasswd.json");
    expect(keyFileName("session", "ü")).toBe("session-%C3%BC.json");
  });

  it("authDir: <stateDir>/auth by default, relative paths inside stateDir", () => {
    expect(authDirOf({}, "/state/whatsapp/default")).toBe("/state/whatsapp/default/auth");
    expect(authDirOf({ authDir: "link" }, "/state/w")).toBe("/state/w/link");
    expect(authDirOf({ authDir: "/srv/wa" }, "/state/w")).toBe("/srv/wa");
  });
});
