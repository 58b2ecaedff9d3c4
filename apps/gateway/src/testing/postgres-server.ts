import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A PostgreSQL server the tests started on a temporary directory and a loopback port. */
export interface TestPostgres {
  /** `postgres://chorus:<password>@127.0.0.1:<port>/postgres`. */
  url: string;
  password: string;
  port: number;
  /** A fresh, empty database on the server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server at once (an immediate shutdown: every connection drops), keeping its data. */
  pause(): Promise<void>;
  /** Starts the server again on the same data and port (after `pause`); resolves once it accepts connections. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Where the server binaries are: `PG_BIN`, PATH, or Debian's `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "initdb"))) return dir;
  throw new Error(
    "the PostgreSQL tests need the server binaries (initdb, postgres): apt-get install -y postgresql (scripts/ensure-postgres.sh)",
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The server refuses to run as root: as root, run it as the `postgres` user. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

/** Starts a throwaway server (initdb on a temp dir, a free loopback port, password auth). */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "chorus-pg-"));
  const data = join(dir, "data");
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  writeFileSync(join(dir, "pwfile"), `${password}\n`);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(join(dir, "pwfile"), uid, gid);
  }
  chmodSync(dir, 0o700);
  const [initdb, initArgs] = asServerUser(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "chorus",
    `--pwfile=${join(dir, "pwfile")}`,
    "--auth=scram-sha-256",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  execFileSync(initdb, initArgs, { stdio: "pipe" });
  const port = await freePort();
  const url = `postgres://chorus:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let server = await launch(bin, data, dir, port, url);
  return {
    url,
    password,
    port,
    async pause() {
      server.signal("SIGQUIT");
      await server.exited;
      // The postmaster removes its lock file as it exits, after the wrapper (`runuser`) may have.
      const deadline = Date.now() + 10_000;
      while (existsSync(join(data, "postmaster.pid")) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async resume() {
      server = await launch(bin, data, dir, port, url);
    },
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    async stop() {
      server.signal("SIGINT");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A running server process: how to signal it, and when it exited. */
interface Launched {
  signal(name: NodeJS.Signals): void;
  exited: Promise<void>;
}

/** Starts `postgres` on `data` and `port`; resolves once it accepts connections at `url`. */
async function launch(bin: string, data: string, dir: string, port: number, url: string): Promise<Launched> {
  const [postgres, args] = asServerUser(join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "max_connections=200",
  ]);
  // Its own process group: stopping it signals the server itself, also when `runuser` stands in between.
  const child: ChildProcess = spawn(postgres, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return { signal, exited };
    } catch (error) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        signal("SIGKILL");
        throw new Error(`the test PostgreSQL did not start: ${(error as Error).message}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
