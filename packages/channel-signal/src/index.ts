/**
 * Signal, through a signal-cli daemon: the plugin object the gateway imports. Then one idea per
 * file: `config.ts` → `instance.ts` (one running account) → `client.ts` (+ `errors.ts`) → `wire.ts`
 * → `events.ts` (the event stream) + `receive.ts` (an event → `ctx.emit`, kept until committed) →
 * `inbound.ts` (+ `attachments.ts`, `mentions.ts`, `directory.ts`) → `outbound.ts` (+ `markdown.ts`,
 * `media-steps.ts`, `uploads.ts`) → `download.ts` (+ `data-answer.ts`), both over `streamed-rpc.ts`
 * → `reactions.ts` → `daemon.ts` (autoStart) → `login.ts` (linking); `media.ts` says what Signal
 * does with media. The fake daemon every test runs against is in `testing/`.
 */
import { CHORUS_API_VERSION, defineChannel } from "@chorus/core";
import { SIGNAL_SECRET_KEYS, type SignalConfig, signalConfigSchema } from "./config.js";
import { createSignalInstance } from "./instance.js";
import { LOGIN_OPTIONS, linkDevice } from "./login.js";
import { signalMediaCapabilities } from "./media.js";
import { MAX_TEXT_LENGTH } from "./outbound.js";
import { probeSignal } from "./probe.js";

/** The Signal channel plugin; the package's default export. */
export const signalChannel = defineChannel<SignalConfig>({
  id: "signal",
  apiVersion: CHORUS_API_VERSION,
  label: "Signal",
  // What Signal can do, as data: the agent's tool schema, core's rules and the contract suite read it.
  capabilities: {
    chatTypes: ["direct", "group"], // direct messages and groups (v2)
    reactions: {
      clearAll: false, // Signal has no clear-all: removing names the one emoji the bot holds
      singleSlot: true, // one reaction per person per message; a new one replaces it
      tapbackOnly: false, // any single emoji
      addOnly: false, // sendReaction --remove takes it back
      list: false, // signal-cli cannot say who reacted
    },
    typing: true, // sendTyping
    inboundReactions: true, // dataMessage.reaction arrives on the event stream
    replies: true, // a quote of the message answered
    threads: false, // Signal has no threads
    maxTextLength: MAX_TEXT_LENGTH, // longer text is split
    media: signalMediaCapabilities, // photos, video, audio, voice notes, files out (14 MB, 32 a message); stickers in too
  },
  configSchema: signalConfigSchema,
  secretKeys: SIGNAL_SECRET_KEYS,
  loginOptions: LOGIN_OPTIONS,
  create: (ctx) => createSignalInstance(ctx),
  probe: (ctx) => probeSignal(ctx),
  login: (ctx) => linkDevice(ctx),
});

export default signalChannel;

export type { SignalConfig } from "./config.js";
export { daemonArgs } from "./daemon.js";
export { SIGNAL_MAX_DOWNLOAD, SIGNAL_MAX_UPLOAD, signalMediaCapabilities } from "./media.js";
