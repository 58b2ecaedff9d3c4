import { z } from "@chorus/core";

/** How a group session wakes the agent: on a mention only, or on every message (DESIGN §4). */
export type ActivationMode = "mention" | "always";

export const ACTIVATION_MODES: readonly ActivationMode[] = ["mention", "always"];

/** Thinking levels `/think` accepts. */
export const THINK_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;

/** One of `THINK_LEVELS`. */
export type ThinkLevel = (typeof THINK_LEVELS)[number];

/**
 * A session's own switches, set by chat commands sent alone and kept in `sessions.json`
 * (DESIGN §4). Read them from the entry (`SessionEntry.settings`, checked when the file is read);
 * change them only with `SessionStore.changeSettings`.
 */
export interface SessionSettings {
  /** `/activation mention|always`: overrides the group's configured activation (`groups/activation.ts`). */
  readonly activation?: ActivationMode;
  /** The group introduction is part of the session; its lifecycle is in `groups/intro.ts`. */
  readonly groupIntroduced?: boolean;
  /** `/verbose on|off`: the turn's tool calls are shown in the chat before the reply (`turn/verbose.ts`). */
  readonly verbose?: boolean;
  /** `/think <level>`: the thinking level the system prompt asks for (`turn/prompt.ts`). */
  readonly think?: ThinkLevel;
}

/**
 * The settings of a `sessions.json` entry. A value of the wrong kind (a hand edit, an older
 * gateway) is dropped rather than trusted, so the session falls back to the default; keys this
 * gateway does not know (a newer gateway's) are kept.
 */
export const sessionSettingsSchema = z.looseObject({
  activation: z.enum(["mention", "always"]).optional().catch(undefined),
  groupIntroduced: z.boolean().optional().catch(undefined),
  verbose: z.boolean().optional().catch(undefined),
  think: z.enum(THINK_LEVELS).optional().catch(undefined),
});

/** Settings to change: a setting given as `undefined` is removed. */
export type SettingsChange = { [K in keyof SessionSettings]?: SessionSettings[K] | undefined };

/** `settings` with `changes` applied; a change to `undefined` removes that setting. */
export function withSettings(settings: SessionSettings, changes: SettingsChange): SessionSettings {
  const next: Record<string, unknown> = { ...settings, ...changes };
  for (const [key, value] of Object.entries(next)) if (value === undefined) delete next[key];
  return next as SessionSettings;
}
