import { toChorusError } from "@chorus/core";
import type { ResolvedAgent } from "../config/agents.js";
import type { SessionEntry, SessionInit, SessionStore, TranscriptEntry, TranscriptStore } from "../sessions/index.js";

/** How a group session wakes the agent: on a mention only, or on every message. */
export type ActivationMode = "mention" | "always";

/** Thinking levels `/think` accepts. */
export const THINK_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;

/** The command names the gateway answers itself (DESIGN §4). */
export type CommandName = "activation" | "status" | "verbose" | "think" | "new" | "reset" | "compact";

/** A chat command sent alone; `invalid` is a known command with bad arguments, answered with `reply`. */
export type Command =
  | { name: "activation"; mode: ActivationMode }
  | { name: "status" }
  | { name: "verbose"; on: boolean }
  | { name: "think"; level: string }
  | { name: "new" }
  | { name: "reset" }
  | { name: "compact" }
  | { name: "invalid"; command: CommandName; reply: string };

export interface ParseCommandOptions {
  /** The bot's usernames: `/status@chorusbot` counts when `chorusbot` is one of them (case-insensitive). */
  botUsernames?: readonly string[];
}

const USAGE: Record<CommandName, string> = {
  activation: "/activation mention|always",
  status: "/status",
  verbose: "/verbose on|off",
  think: `/think ${THINK_LEVELS.join("|")}`,
  new: "/new",
  reset: "/reset",
  compact: "/compact",
};

const COMMAND = /^\/([a-z]+)(?:@([\w.]+))?(?:\s+([\s\S]*))?$/i;

/**
 * The command in `text` when the whole trimmed message is one (case-insensitive); `undefined`
 * for anything else, so unknown `/words` and commands inside a sentence reach the model as chat.
 */
export function parseCommand(text: string, options: ParseCommandOptions = {}): Command | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match) return undefined;
  const name = (match[1] as string).toLowerCase();
  if (!Object.hasOwn(USAGE, name)) return undefined;
  const addressee = match[2]?.toLowerCase();
  if (addressee !== undefined && !(options.botUsernames ?? []).some((bot) => bot.toLowerCase() === addressee)) {
    return undefined;
  }
  const command = name as CommandName;
  const args = (match[3] ?? "").trim().split(/\s+/).filter(Boolean);
  const arg = args[0]?.toLowerCase();
  switch (command) {
    case "status":
    case "new":
    case "reset":
    case "compact":
      // `/new let's talk about X` is chat, not the command sent alone.
      return args.length === 0 ? { name: command } : undefined;
    case "activation":
      if (args.length === 1 && (arg === "mention" || arg === "always")) return { name: "activation", mode: arg };
      return invalid(command, args, "mention: answer only when mentioned or replied to; always: read every message");
    case "verbose":
      if (args.length === 1 && (arg === "on" || arg === "off")) return { name: "verbose", on: arg === "on" };
      return invalid(command, args, "on or off");
    case "think":
      if (args.length === 1 && (THINK_LEVELS as readonly string[]).includes(arg as string)) {
        return { name: "think", level: arg as string };
      }
      return invalid(command, args, THINK_LEVELS.join(", "));
  }
}

function invalid(command: CommandName, args: readonly string[], valid: string): Command {
  const given = args.length === 0 ? "needs a value" : `does not accept "${args.join(" ")}"`;
  return { name: "invalid", command, reply: `/${command} ${given}. Use ${USAGE[command]} (${valid}).` };
}

/** What `applyCommand` needs about the conversation the command came from. */
export interface CommandContext {
  /** The sender is an owner of the channel (see `isOwner`). */
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
  /** The group's configured activation (`groups.<id|*>.requireMention`); `mention` when unset. */
  defaultActivation?: ActivationMode;
  /** Asks the model for a summary of the transcript (`/compact`). */
  summarise(entries: readonly TranscriptEntry[]): Promise<string>;
  /** Buffered group messages (PendingHistory); `/new` and `/reset` clear the session's. */
  pending: { clear(key: string): void };
  /** The clock, for tests. */
  now?: () => Date;
}

/** The outcome: `handled: false` means the message is not a command for this sender (treat it as chat). */
export interface CommandResult {
  reply: string;
  handled: boolean;
}

const IGNORED: CommandResult = { reply: "", handled: false };

/** Carries out a parsed command for one session and says what to answer; nothing reaches the model. */
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
      return setActivation(command.mode, ctx);
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
      return compact(ctx);
  }
}

async function setActivation(mode: ActivationMode, ctx: CommandContext): Promise<CommandResult> {
  await changeSettings(ctx, { activation: mode, groupIntroduced: false });
  return done(
    mode === "always"
      ? "Activation is now always: I read every message in this group and answer when I have something to add."
      : "Activation is now mention: I answer in this group only when I am mentioned or replied to.",
  );
}

async function startOver(ctx: CommandContext): Promise<CommandResult> {
  ctx.pending.clear(ctx.sessionKey);
  if (ctx.store.get(ctx.sessionKey) !== undefined) {
    ctx.store.reset(ctx.sessionKey);
    if (ctx.chatType === "group") {
      ctx.store.update(ctx.sessionKey, (entry) => ({ settings: { ...entry.settings, groupIntroduced: false } }));
    }
    await ctx.store.flush();
  }
  return done("Started a new session: earlier messages are forgotten; settings are kept.");
}

async function compact(ctx: CommandContext): Promise<CommandResult> {
  const session = ctx.store.get(ctx.sessionKey);
  const entries = session === undefined ? [] : await ctx.transcripts.read(session.sessionId);
  if (session === undefined || entries.length === 0) return done("Nothing to compact yet: this session is empty.");
  let summary: string;
  try {
    summary = (await ctx.summarise(entries)).trim();
  } catch (error) {
    return done(`Could not compact this session: ${toChorusError(error).message}. The transcript is unchanged.`);
  }
  if (summary === "")
    return done("Could not compact this session: the summary came back empty. The transcript is unchanged.");
  const at = (ctx.now ?? (() => new Date()))().toISOString();
  await ctx.transcripts.rewrite(session.sessionId, [{ at, role: "system", content: summary }]);
  const count = entries.length === 1 ? "1 entry" : `${entries.length} entries`;
  return done(`Compacted this session: ${count} replaced by a summary of ${summary.length} characters.`);
}

/** The `/status` answer: channel, session, activation, model and per-session switches. */
function statusText(ctx: CommandContext): string {
  const session: SessionEntry | undefined = ctx.store.get(ctx.sessionKey);
  const settings = session?.settings ?? ctx.init.settings ?? {};
  const channel = session?.channel ?? ctx.init.channel;
  const accountId = session?.accountId ?? ctx.init.accountId;
  const lines = [
    `${ctx.agent.name} status`,
    `Channel: ${ctx.channelLabel} (${channel}, account ${accountId}), ${ctx.chatType === "group" ? "group" : "direct chat"}`,
    `Session: ${ctx.sessionKey}${session ? ` (id ${session.sessionId}, ${session.turns} turns)` : " (no turns yet)"}`,
    `Activation: ${activationText(ctx, settings)}`,
    `Model: ${modelText(ctx.agent)}`,
    `Verbose: ${settings.verbose === true ? "on" : "off"}`,
    `Think: ${typeof settings.think === "string" ? settings.think : "default"}`,
  ];
  return lines.join("\n");
}

function activationText(ctx: CommandContext, settings: Record<string, unknown>): string {
  if (ctx.chatType !== "group") return "every message (direct chat)";
  const set = settings.activation;
  if (set === "mention" || set === "always") return `${set} (set with /activation)`;
  return `${ctx.defaultActivation ?? "mention"} (default)`;
}

function modelText(agent: ResolvedAgent): string {
  const model = agent.model;
  if (model.provider === "demo") return "demo (the offline demo model)";
  return `${model.name}/${model.model}`;
}

async function changeSettings(ctx: CommandContext, changes: Record<string, unknown>): Promise<void> {
  ctx.store.ensure(ctx.sessionKey, ctx.init);
  ctx.store.update(ctx.sessionKey, (entry) => ({ settings: { ...entry.settings, ...changes } }));
  await ctx.store.flush();
}

function done(reply: string): CommandResult {
  return { reply, handled: true };
}
