import { ChorusError, type Logger } from "@chorus/core";

export interface WebchatHubOptions {
  /** Where `webchat.json` is kept; without it nothing survives a restart. */
  stateDir?: string;
  /** The bot's display name (the agent's name); default `Chorus`. */
  botName?: string;
  /** The page title; default `Chorus`. */
  title?: string;
  /** Messages kept per room (older ones are dropped); default 500. */
  historyLimit?: number;
  logger?: Logger;
  /** How long state changes are collected before one write; default 50 ms. */
  persistDelayMs?: number;
}

/** Settings a plugin config may change after the hub exists. */
export interface WebchatSettings {
  botName?: string;
  title?: string;
  historyLimit?: number;
}

export interface PostOptions {
  /** Id of a message in the same room this one answers. */
  replyTo?: string;
  /** User ids to mention in addition to the `@Name`s in the text. */
  mentions?: readonly string[];
}

/** Messages a room keeps unless configured otherwise. */
export const DEFAULT_HISTORY_LIMIT = 500;

/** A valid `historyLimit`, or `E_INVALID_INPUT`. */
export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ChorusError("E_INVALID_INPUT", `historyLimit must be a positive integer, got ${limit}`);
  }
  return limit;
}
