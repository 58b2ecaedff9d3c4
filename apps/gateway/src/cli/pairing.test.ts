import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChorusError } from "@chorus/core";
import { Command, CommanderError } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PairingStore } from "../access/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { formatPairingList, registerPairingCommands } from "./pairing.js";

let home: string;
let state: TestState;
let clock: number;
let gateway: PairingStore;
const now = () => clock;
const alice = { id: "u-alice", name: "Alice", e164: "+4915112345678" };

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "chorus-cli-pairing-"));
  clock = Date.parse("2030-01-01T12:00:00Z");
  // The gateway's own connection to <home>/chorus.db; the CLI opens another, as a second process would.
  state = await openTestState(undefined, home);
  gateway = await PairingStore.open(state.state, { now });
});
afterEach(async () => {
  await state.close();
  await rm(home, { recursive: true, force: true });
});

/** Runs `chorus <args>` in-process against the temp home; returns what it printed. */
async function chorus(...args: string[]): Promise<string> {
  let printed = "";
  const program = new Command("chorus")
    .exitOverride()
    .configureOutput({ writeOut: (text) => (printed += text), writeErr: (text) => (printed += text) });
  registerPairingCommands(program, { env: { CHORUS_HOME: home }, out: (text) => (printed += text), now });
  try {
    await program.parseAsync(["node", "chorus", ...args]);
  } catch (error) {
    if (!(error instanceof CommanderError && error.code === "commander.helpDisplayed")) throw error;
  }
  return printed;
}

describe("chorus pairing list", () => {
  it("says when there is nothing, naming where the state is", async () => {
    expect(await chorus("pairing", "list")).toBe(
      `No pending pairing requests and no approved senders (${join(home, "chorus.db")}).\n`,
    );
  });

  it("shows pending codes and approved senders per channel account", async () => {
    const { code: first } = await gateway.request("webchat", "default", alice);
    clock += 20 * 60_000;
    const { code: second } = await gateway.request("telegram", "work", { id: "42", name: "Bob" });
    await gateway.approve(first);
    clock += 60_000;
    expect(await chorus("pairing", "list")).toBe(
      [
        "telegram (account work)",
        `  pending   ${second}  Bob (id 42)  expires in 59 min`,
        "",
        "webchat (account default)",
        `  approved  ${first}  Alice (+4915112345678, id u-alice)  since 2030-01-01T12:20:00.000Z`,
        "",
        "Approve a code with: chorus pairing approve <code>",
        "",
      ].join("\n"),
    );
  });

  it("prints JSON with --json", async () => {
    await gateway.request("webchat", "default", alice);
    const printed = JSON.parse(await chorus("pairing", "list", "--json"));
    expect(printed).toEqual(await gateway.list());
    expect(printed.pending[0]).toMatchObject({ channel: "webchat", senderId: "u-alice" });
  });

  it("reads the home of --config's installation without needing a config file", async () => {
    const config = join(home, "custom.json");
    await writeFile(config, "{ gateway: { port: 7811 } }");
    await gateway.request("webchat", "default", alice);
    expect(await chorus("pairing", "list", "--config", config)).toContain("pending");
  });
});

describe("chorus pairing approve", () => {
  it("approves a code typed in lower case; the gateway's store sees the sender as allowed", async () => {
    const { code } = await gateway.request("webchat", "default", alice);
    expect(await chorus("pairing", "approve", code.toLowerCase())).toBe(
      "Approved Alice (+4915112345678, id u-alice) on webchat (account default). Their next direct message reaches the agent.\n",
    );
    expect(await gateway.isApproved("webchat", "default", "u-alice")).toBe(true);
    expect(await chorus("pairing", "list")).toContain(`approved  ${code}`);
  });

  it("fails with E_INVALID_INPUT for an unknown or already used code", async () => {
    const { code } = await gateway.request("webchat", "default", alice);
    await chorus("pairing", "approve", code);
    const error = await chorus("pairing", "approve", code).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error).toMatchObject({
      code: "E_INVALID_INPUT",
      message: `no pending pairing request has the code "${code}"`,
    });
  });

  it("fails with E_INVALID_INPUT for an expired code", async () => {
    const { code } = await gateway.request("webchat", "default", alice);
    clock += 3_600_000;
    const error = await chorus("pairing", "approve", code).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "E_INVALID_INPUT", message: expect.stringContaining("expired at") });
  });

  it("requires the code argument", async () => {
    const error = await chorus("pairing", "approve").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "commander.missingArgument" });
  });
});

describe("help", () => {
  it("explains pairing and lists both commands", async () => {
    // Commander wraps long lines to the terminal width.
    const help = (await chorus("pairing", "--help")).replace(/\s+/g, " ");
    expect(help).toContain("approve people who messaged the bot directly (channels.<id>.dmPolicy: pairing)");
    expect(help).toContain("list [options] show pending pairing codes and approved senders, per channel");
    expect(help).toContain("approve [options] <code> approve a pending pairing code (case does not matter)");
    expect(help).toContain("Codes are valid for one hour");
  });

  it("documents each command's options", async () => {
    expect(await chorus("pairing", "list", "--help")).toMatch(/--json\s+machine-readable output/);
    const approve = await chorus("pairing", "approve", "--help");
    expect(approve).toContain("Usage: chorus pairing approve [options] <code>");
    expect(approve).toContain("chorus pairing approve K7Q2XM");
  });
});

describe("formatPairingList", () => {
  it("rounds the time left up to whole minutes, at least one", () => {
    const base = { channel: "webchat", accountId: "default", senderId: "u1", code: "ABCDEF" };
    const at = Date.parse("2030-01-01T12:00:00Z");
    const pending = (expiresAt: string) => ({ ...base, createdAt: "2030-01-01T11:00:00Z", expiresAt });
    expect(formatPairingList({ pending: [pending("2030-01-01T12:00:30Z")], approved: [] }, "f", at)).toContain(
      "expires in 1 min",
    );
    expect(formatPairingList({ pending: [pending("2030-01-01T12:10:01Z")], approved: [] }, "f", at)).toContain(
      "expires in 11 min",
    );
  });
});
