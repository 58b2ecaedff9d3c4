import { createHash } from "node:crypto";
import { Redactor } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import {
  type ChannelPlugin,
  ChorusError,
  type GeoLocation,
  type MediaCapabilities,
  type MessageRef,
  silentLogger,
} from "@chorus/core";
import { fullCapabilities } from "../testing/index.js";
import { accountKey } from "./account-key.js";
import { ChannelRegistry } from "./registry.js";
import { ChannelSupervisor } from "./supervisor.js";

/** One medium as the double's `send` read it: every byte of `open()`, hashed. */
export interface ReceivedMedium {
  kind: string;
  mime: string;
  filename: string;
  size: number;
  caption?: string;
  bytes: number;
  sha256: string;
}

/** One `send` the double took, completed. */
export interface ReceivedSend {
  messageId: string;
  conversation: string;
  text: string;
  replyTo?: string;
  idempotencyKey?: string;
  media: ReceivedMedium[];
  location?: GeoLocation;
}

/** A channel plugin for tests of the media path: it records its sends, reading every byte of each medium. */
export interface RecordingChannel {
  registry: ChannelRegistry;
  /** Sends completed, in order. */
  sends: ReceivedSend[];
  /** Sends started (completed or not). */
  started: number;
  /** The next sends wait for this before they read anything (a slow upload, a send a crash cuts off). */
  hold(until: Promise<void>): void;
  /** The `n`th send from now fails with `E_PLATFORM`. */
  failAt(n: number): void;
  /** From now on a voice note goes out as `kind`, said on the ref (`data.sentAs`), as WhatsApp does without ffmpeg. */
  sendVoiceAs(kind: string): void;
  stop(): Promise<void>;
}

/** Starts the recording channel `rec` (label `Rec`) with these media capabilities (none: no media at all). */
export async function startRecordingChannel(media?: MediaCapabilities): Promise<RecordingChannel> {
  const sends: ReceivedSend[] = [];
  let held: Promise<void> | undefined;
  let failIn: number | undefined;
  let voiceAs: string | undefined;
  const channel = {
    sends,
    started: 0,
    registry: new ChannelRegistry(),
    hold: (until: Promise<void>) => {
      held = until;
    },
    failAt: (n: number) => {
      failIn = n;
    },
    sendVoiceAs: (kind: string) => {
      voiceAs = kind;
    },
    stop: async (): Promise<void> => undefined,
  };
  const plugin: ChannelPlugin<unknown> = {
    id: "rec",
    apiVersion: 1,
    label: "Rec",
    capabilities: { ...fullCapabilities(), ...(media ? { media } : {}) },
    configSchema: { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } },
    create: () => ({
      start: async () => undefined,
      stop: async () => undefined,
      async send(conversation, message): Promise<MessageRef> {
        channel.started++;
        if (held) await held;
        if (failIn !== undefined && --failIn === 0) throw new ChorusError("E_PLATFORM", "Rec refused the upload");
        const media: ReceivedMedium[] = [];
        for (const medium of message.media ?? []) {
          const hash = createHash("sha256");
          let bytes = 0;
          for await (const chunk of medium.open()) {
            hash.update(chunk);
            bytes += chunk.byteLength;
          }
          media.push({
            kind: medium.kind,
            mime: medium.mime,
            filename: medium.filename,
            size: medium.size,
            ...(medium.caption !== undefined ? { caption: medium.caption } : {}),
            bytes,
            sha256: hash.digest("hex"),
          });
        }
        const messageId = `rec-${sends.length + 1}`;
        sends.push({
          messageId,
          conversation: conversation.id,
          text: message.text,
          ...(message.replyTo ? { replyTo: message.replyTo.messageId } : {}),
          ...(message.idempotencyKey ? { idempotencyKey: message.idempotencyKey } : {}),
          media,
          ...(message.location ? { location: message.location } : {}),
        });
        const ref = { channel: "rec", accountId: "default", conversationId: conversation.id, messageId, fromBot: true };
        const sentAs = media.map((medium) =>
          medium.kind === "voice" && voiceAs !== undefined ? voiceAs : medium.kind,
        );
        return voiceAs !== undefined && media.some((m) => m.kind === "voice") ? { ...ref, data: { sentAs } } : ref;
      },
      react: async () => ({ ok: true, action: "react", op: "add" }),
      setTyping: async () => undefined,
      resolveMessageRef: async (conversation, messageId) => ({
        channel: "rec",
        accountId: "default",
        conversationId: conversation.id,
        messageId,
      }),
      status: () => ({ state: "running" }),
    }),
  };
  const supervisor = new ChannelSupervisor({
    plugin,
    accountId: "default",
    logger: silentLogger,
    context: (signal) => ({
      config: {},
      accountId: "default",
      store: new MemoryStore(),
      stateDir: "/nonexistent",
      logger: silentLogger,
      signal,
      emit: async () => {},
      http: { route: () => {}, url: (path) => path },
    }),
  });
  channel.registry.add({
    plugin,
    capabilities: plugin.capabilities,
    accountId: "default",
    key: accountKey("rec", "default"),
    builtin: false,
    settings: {},
    supervisor,
    redactor: new Redactor(),
  });
  await supervisor.start();
  channel.stop = () => supervisor.stop();
  return channel;
}
