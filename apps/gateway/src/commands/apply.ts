import { type ModelFailure, modelLabel, withoutModelAddress } from "../agent/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { INTRODUCE_AGAIN } from "../groups/index.js";
import type {
  ActivationMode,
  SessionInit,
  SessionSettings,
  SessionStore,
  TranscriptEntry,
  TranscriptStore,
} from "../sessions/index.js";
import { compactSession } from "./compact.js";
import type { Command } from "./parse.js";

/** What `applyCommand` needs about the conversation the command came from. */
export interface CommandContext {
  /** The sender is an owner of the channel (`isOwner` in `access/allowlist.ts`). */
  owner: boolean;
  chatType: "direct" | "group";
  sessionKey: string;
  /** Creates the session when a command changes it before its first run. */
  init: SessionInit;
  store: SessionStore;
  transcripts: TranscriptStore;
  agent: ResolvedAgent;
  /** The channel as people call it (`WhatsApp`). */
  channelLabel: string;
  /** The group's configured activation (`groups/activation.ts`); `mention` when unset. */
  defaultActivation?: ActivationMode;
  /** Asks the model for a summary of the transcript (`/compact`). */
  summarise(entries: readonly TranscriptEntry[]): Promise<string>;
  /**
   * Forgets what the gateway keeps of the conversation outside its session — the buffered group
   * messages and the echo memory — for `/new` and `/reset`.
   */
  forget(sessionKey: string): void | Promise<void>;
  /** The agent's last model failure, while it lasts: the owner's `/status` shows it. */
  lastFailure?: ModelFailure | undefined;
  /** The clock, for tests. */
  now?: () => Date;
}

/** The outcome: `handled: false` means the message is not a command for this sender (treat it as chat). */
export interface CommandResult {
  reply: string;
  handled: boolean;
}

const IGNORED: CommandResult = { reply: "", handled: false };

/**
 * Carries out a parsed command for one session and says what to answer; nothing reaches the
 * model. `/activation` is for groups and owner-only: from anyone else it is not a command
 * (`handled: false`), so it stays chat and wakes nothing.
 */
export async function applyCommand(command: Command, ctx: CommandContext): Promise<CommandResult> {
  const kind = command.name === "invalid" ? command.command : command.name;
  if (kind === "activation") {
    if (ctx.chatType !== "group") {
      return done(
        "/activation only applies in groups. In a direct chat I answer every message; " +
          "send it in a group to choose between mention and always.",
      );
    }
    if (!ctx.owner) return IGNORED;
  }
  switch (command.name) {
    case "invalid":
      return done(command.reply);
    case "activation":
      await changeSettings(ctx, { activation: command.mode, ...INTRODUCE_AGAIN });
      return done(
        command.mode === "always"
          ? "Activation is now always: I read every message in this group and answer when I have something to add."
          : "Activation is now mention: I answer in this group only when I am mentioned or replied to.",
      );
    case "status":
      return done(statusText(ctx));
    case "verbose":
      await changeSettings(ctx, { verbose: command.on });
      return done(command.on ? "Verbose is on for this session." : "Verbose is off for this session.");
    case "think":
      await changeSettings(ctx, { think: command.level });
      return done(`Thinking level for this session is now ${command.level}.`);
    case "new":
    case "reset":
      return startOver(ctx);
    case "compact":
      return done(await compactSession(ctx));
  }
}

/** `/new`, `/reset`: a new session id and transcript, settings kept, the group introduced again. */
async function startOver(ctx: CommandContext): Promise<CommandResult> {
  await ctx.forget(ctx.sessionKey);
  if (ctx.store.get(ctx.sessionKey) !== undefined) {
    ctx.store.reset(ctx.sessionKey);
    if (ctx.chatType === "group") ctx.store.changeSettings(ctx.sessionKey, INTRODUCE_AGAIN);
    await ctx.store.flush();
  }
  return done("Started a new session: earlier messages are forgotten; settings are kept.");
}

/** The `/status` answer: channel, session, activation, model and per-session switches. */
function statusText(ctx: CommandContext): string {
  const session = ctx.store.get(ctx.sessionKey);
  const settings = ctx.store.settings(ctx.sessionKey);
  const channel = session?.channel ?? ctx.init.channel;
  const accountId = session?.accountId ?? ctx.init.accountId;
  const lines = [
    `${ctx.agent.name} status`,
    `Channel: ${ctx.channelLabel} (${channel}, account ${accountId}), ${ctx.chatType === "group" ? "group" : "direct chat"}`,
    `Session: ${ctx.sessionKey}${session ? ` (id ${session.sessionId}, ${session.turns} turns)` : " (no turns yet)"}`,
    `Activation: ${activationText(ctx, settings)}`,
    `Model: ${modelText(ctx.agent)}`,
    `Verbose: ${settings.verbose === true ? "on" : "off"}`,
    `Think: ${settings.think ?? "default"}`,
  ];
  // Members only ever see the fixed notice; the owner sees why the model failed.
  if (ctx.owner && ctx.lastFailure) {
    const { at, code, message } = ctx.lastFailure;
    lines.push(`Last model error (${at.toISOString()}): ${code} ${withoutModelAddress(message)}`);
  }
  return lines.join("\n");
}

function activationText(ctx: CommandContext, settings: SessionSettings): string {
  if (ctx.chatType !== "group") return "every message (direct chat)";
  if (settings.activation !== undefined) return `${settings.activation} (set with /activation)`;
  return `${ctx.defaultActivation ?? "mention"} (default)`;
}

function modelText(agent: ResolvedAgent): string {
  const model = agent.model;
  if (model.provider === "demo") return "demo (the offline demo model)";
  if (model.provider === "external") return "external (an outside agent answers through the API or MCP)";
  return modelLabel(model);
}

async function changeSettings(ctx: CommandContext, changes: SessionSettings): Promise<void> {
  ctx.store.changeSettings(ctx.sessionKey, changes, ctx.init);
  await ctx.store.flush();
}

function done(reply: string): CommandResult {
  return { reply, handled: true };
}
