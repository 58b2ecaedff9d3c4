import { type ChannelStore, ChorusError, type GeoLocation, type Logger } from "@chorus/core";
import type { WebchatMedium } from "./types.js";
import type { Uploads } from "./uploads.js";

export interface WebchatHubOptions {
  /** Where people, rooms, messages and reactions are kept (the channel's `ctx.store`); without it nothing survives a restart. */
  store?: ChannelStore;
  /** The bot's display name (the agent's name); default `Chorus`. */
  botName?: string;
  /** The page title; default `Chorus`. */
  title?: string;
  /** Messages kept per room (older ones are dropped); default 500. */
  historyLimit?: number;
  logger?: Logger;
  /** How long changes are collected before they are written to the store; default 50 ms. */
  persistDelayMs?: number;
  /** Files people upload for their messages; without it messages carry no media from people. */
  uploads?: Uploads;
  /** Told the media of messages no longer kept (dropped beyond `historyLimit`), to delete them from the store. */
  mediaDropped?: (media: readonly WebchatMedium[]) => void;
}

export interface PostOptions {
  /** Id of a message in the same room this one answers. */
  replyTo?: string;
  /** User ids to mention in addition to the `@Name`s in the text. */
  mentions?: readonly string[];
  /** Media the message carries (its text may then be empty). */
  media?: readonly WebchatMedium[];
  /** A place the message shares as a pin (its text may then be empty). */
  location?: GeoLocation;
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
