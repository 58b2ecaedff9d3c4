import type { Command } from "commander";
import { describeSender, type PairingList, PairingStore } from "../access/index.js";
import { cliContext, openCliState } from "./context.js";

/** Where the pairing commands read their environment and write their output (tests swap them). */
export interface PairingCommandIo {
  env?: NodeJS.ProcessEnv;
  out?: (text: string) => void;
  /** The clock in epoch milliseconds. */
  now?: () => number;
}

/** `chorus pairing list|approve`: the pairing codes strangers get under `dmPolicy: "pairing"`. */
export function registerPairingCommands(program: Command, io: PairingCommandIo = {}): void {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const open = async (options: { config?: string }) => {
    const ctx = await cliContext(options, io.env);
    const state = await openCliState(ctx);
    const store = await PairingStore.open(state, io.now ? { now: io.now } : {});
    return Object.assign(store, { close: () => state.close() });
  };
  const pairing = program
    .command("pairing")
    .description("approve people who messaged the bot directly (channels.<id>.dmPolicy: pairing)")
    .addHelpText(
      "after",
      '\nWith dmPolicy "pairing" (the default), a stranger\'s first direct message gets a 6-character code\n' +
        "instead of an answer. Approve it here to let them talk to the agent. Codes are valid for one hour.\n" +
        "State: the gateway's state database (<home>/chorus.db, or state.url)",
    );
  pairing
    .command("list")
    .description("show pending pairing codes and approved senders, per channel")
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .option("--json", "machine-readable output")
    .action(async (options: { config?: string; json?: boolean }) => {
      const store = await open(options);
      try {
        const list = await store.list();
        if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
        else out(formatPairingList(list, store.where, io.now?.() ?? Date.now()));
      } finally {
        await store.close();
      }
    });
  pairing
    .command("approve <code>")
    .description("approve a pending pairing code (case does not matter); the sender may then message the agent")
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .addHelpText("after", "\nExample:\n  chorus pairing approve K7Q2XM")
    .action(async (code: string, options: { config?: string }) => {
      const store = await open(options);
      try {
        const entry = await store.approve(code);
        out(
          `Approved ${describeSender(entry)} on ${entry.channel} (account ${entry.accountId}). Their next direct message reaches the agent.\n`,
        );
      } finally {
        await store.close();
      }
    });
}

/** The human listing of `chorus pairing list`: one block per channel account. */
export function formatPairingList(list: PairingList, file: string, now: number): string {
  if (list.pending.length === 0 && list.approved.length === 0) {
    return `No pending pairing requests and no approved senders (${file}).\n`;
  }
  const blocks = new Map<string, string[]>();
  const lines = (entry: { channel: string; accountId: string }) => {
    const key = `${entry.channel} (account ${entry.accountId})`;
    const block = blocks.get(key) ?? [];
    blocks.set(key, block);
    return block;
  };
  for (const request of list.pending) {
    const minutes = Math.max(1, Math.ceil((Date.parse(request.expiresAt) - now) / 60_000));
    lines(request).push(`  pending   ${request.code}  ${describeSender(request)}  expires in ${minutes} min`);
  }
  for (const entry of list.approved) {
    lines(entry).push(`  approved  ${entry.code}  ${describeSender(entry)}  since ${entry.approvedAt}`);
  }
  const text = [...blocks]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, block]) => `${key}\n${block.join("\n")}`)
    .join("\n\n");
  const hint = list.pending.length > 0 ? "\n\nApprove a code with: chorus pairing approve <code>" : "";
  return `${text}${hint}\n`;
}
