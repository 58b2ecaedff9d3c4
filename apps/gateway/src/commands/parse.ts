import { type ActivationMode, THINK_LEVELS, type ThinkLevel } from "../sessions/index.js";

/** The command names the gateway answers itself (DESIGN §4). */
export type CommandName = "activation" | "status" | "verbose" | "think" | "new" | "reset" | "compact";

/** A chat command sent alone; `invalid` is a known command with bad arguments, answered with `reply`. */
export type Command =
  | { name: "activation"; mode: ActivationMode }
  | { name: "status" }
  | { name: "verbose"; on: boolean }
  | { name: "think"; level: ThinkLevel }
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
        return { name: "think", level: arg as ThinkLevel };
      }
      return invalid(command, args, THINK_LEVELS.join(", "));
  }
}

function invalid(command: CommandName, args: readonly string[], valid: string): Command {
  const given = args.length === 0 ? "needs a value" : `does not accept "${args.join(" ")}"`;
  return { name: "invalid", command, reply: `/${command} ${given}. Use ${USAGE[command]} (${valid}).` };
}
