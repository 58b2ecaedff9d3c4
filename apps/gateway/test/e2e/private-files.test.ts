import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { DatabaseSync } from "@photostructure/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { connectWebchat } from "../support/webchat-client.js";

const run = promisify(execFile);
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Every directory and file under `home` whose mode is not 0700 / 0600, as `path mode`. */
async function looseUnder(home: string): Promise<string[]> {
  const loose: string[] = [];
  const visit = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const mode = await modeOf(path);
      if (entry.isDirectory()) await visit(path);
      if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) loose.push(`${relative(home, path)} ${mode.toString(8)}`);
    }
  };
  await visit(home);
  return loose;
}

/** Everything under `home`, relative to it. */
async function filesUnder(home: string): Promise<string[]> {
  return (await readdir(home, { recursive: true })).map(String).sort();
}

describe.skipIf(process.platform === "win32")("chat content at rest is readable by its owner only", () => {
  let gateway: GatewayProcess | undefined;
  let parent: string;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await removeHome(parent);
  });

  it("a new home is 0700, chorus.db and its -wal/-shm 0600, and so is everything a webchat turn writes", async () => {
    parent = await mkdtemp(join(tmpdir(), "chorus-private-"));
    const home = join(parent, "home");
    const previous = process.umask(0o022);
    try {
      gateway = await startGatewayProcess({ home, noConfig: true, args: ["--port", "0"] });
    } finally {
      process.umask(previous);
    }
    expect(await modeOf(home)).toBe(0o700);
    for (const name of ["chorus.db", "chorus.db-wal", "chorus.db-shm", "gateway-token"])
      expect(await modeOf(join(home, name)), name).toBe(0o600);

    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    const room = `dm:${ada.you.id}`;
    ada.send({ type: "join", room });
    ada.send({ type: "message", room, text: "my secret is swordfish" });
    await ada.waitForFrame((f) => f.type === "message" && f.message.sender?.id !== ada.you.id);
    await ada.close();
    expect(await gateway.stop()).toBe(0);

    const files = await filesUnder(home);
    // The webchat keeps its rooms and messages in its store, in chorus.db: no file of its own.
    expect(files).not.toContain(join("state", "webchat", "default", "webchat.json"));
    expect(files).toContain(join("agents", "main", "sessions", "sessions.json"));
    expect(await looseUnder(home)).toEqual([]);
  });

  it("an older install's 0755 home and 0644 chorus.db, state, store and sessions.json are tightened at start", async () => {
    parent = await mkdtemp(join(tmpdir(), "chorus-private-"));
    const home = join(parent, "home");
    const previous = process.umask(0o022);
    try {
      await mkdir(home, { mode: 0o755 });
      const db = new DatabaseSync(join(home, "chorus.db"));
      db.exec("PRAGMA journal_mode = WAL");
      db.close();
      await writeFile(join(home, "chorus.db-wal"), "", { flag: "a" });
      const older = {
        "gateway-token": "an-older-install-token-0123456789\n",
        [join("state", "telegram", "default", "offset.json")]: "{}",
        [join("store", "telegram", "default", "botReactions.json")]: '{"version":1,"entries":{}}',
        [join("agents", "main", "sessions", "sessions.json")]: '{"version":1,"sessions":{}}',
      };
      for (const [name, text] of Object.entries(older)) {
        await mkdir(join(home, name, ".."), { recursive: true });
        await writeFile(join(home, name), text);
      }
    } finally {
      process.umask(previous);
    }
    await chmod(home, 0o755);
    for (const name of ["chorus.db", "chorus.db-wal", "gateway-token"]) await chmod(join(home, name), 0o644);
    expect(await modeOf(home)).toBe(0o755);
    expect(await looseUnder(home)).toEqual(
      expect.arrayContaining([
        "chorus.db 644",
        "chorus.db-wal 644",
        "gateway-token 644",
        "state 755",
        `${join("state", "telegram", "default", "offset.json")} 644`,
        `${join("store", "telegram", "default")} 755`,
        `${join("store", "telegram", "default", "botReactions.json")} 644`,
        `${join("agents", "main", "sessions", "sessions.json")} 644`,
      ]),
    );

    gateway = await startGatewayProcess({ home, noConfig: true, args: ["--port", "0"] });
    expect(await looseUnder(home)).toEqual([]);
    expect(gateway.token).toBe("an-older-install-token-0123456789");
    expect(await modeOf(home)).toBe(0o700);
    for (const name of ["chorus.db", "chorus.db-wal", "chorus.db-shm"])
      expect(await modeOf(join(home, name)), name).toBe(0o600);
    expect(await modeOf(join(home, "store", "telegram", "default", "botReactions.json"))).toBe(0o600);
    expect(await modeOf(join(home, "agents", "main", "sessions", "sessions.json"))).toBe(0o600);
  });

  it("a CLI command that opens the state tightens a 0755 home and creates chorus.db 0600", async () => {
    parent = await mkdtemp(join(tmpdir(), "chorus-private-"));
    const home = join(parent, "home");
    await mkdir(home);
    await chmod(home, 0o755);
    const env = { ...process.env, CHORUS_HOME: home, CHORUS_CONFIG: "" };
    await run(process.execPath, [CLI, "pairing", "list"], { env });
    expect(await modeOf(home)).toBe(0o700);
    expect(await modeOf(join(home, "chorus.db"))).toBe(0o600);
    expect(await looseUnder(home)).toEqual([]);
  });
});
