import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import { type InboundEvent, type InboundMessageEvent, silentLogger } from "@chorus/core";
import { createMemoryChannel, createMemoryPlatform, type MemoryPlatform, sampleMedium, waitFor } from "@chorus/testkit";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountKey, ChannelRegistry, ChannelSupervisor } from "../channels/index.js";
import type { ChannelSettings } from "../config/index.js";
import { defaultMedia } from "../config/index.js";
import { type GatewayMedia, mediaSettingsOf, openMedia } from "../media/index.js";
import { type InboxRow, MessageIndex } from "../state/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { MediaUnderstanding } from "../understand/index.js";
import { NOT_ALLOWED } from "./attachments.js";
import { EventFilter } from "./filter.js";

const png = sampleMedium("image");

/** The bytes of a medium in the store. */
async function bytesOf(media: GatewayMedia, mediaId: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of (await media.store.open(mediaId)).stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/*
 * The event stream's view of messages with attachments: the real memory channel downloads from its
 * platform into the real media store, through the intake the turns use.
 */
describe("EventFilter: a message's attachments with their mediaId, never the plugin's source", () => {
  let platform: MemoryPlatform;
  let dir: string;
  let test: TestState;
  let media: GatewayMedia;
  let supervisor: ChannelSupervisor;
  let registry: ChannelRegistry;
  let index: MessageIndex;
  const emitted: InboundEvent[] = [];

  async function start(settings: ChannelSettings) {
    const plugin = createMemoryChannel();
    supervisor = new ChannelSupervisor({
      plugin: plugin as never,
      accountId: "default",
      logger: silentLogger,
      context: (signal) => ({
        config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 200, retries: 0, timeoutMs: 5_000 },
        accountId: "default",
        store: new MemoryStore(),
        stateDir: join(dir, "state"),
        logger: silentLogger,
        signal,
        emit: async (event) => {
          emitted.push(event);
        },
        http: { route: () => {}, url: (path) => path },
      }),
    });
    registry = new ChannelRegistry();
    registry.add({
      plugin: plugin as never,
      capabilities: plugin.capabilities,
      accountId: "default",
      key: accountKey(plugin.id, "default"),
      builtin: false,
      settings,
      supervisor,
      redactor: new Redactor([platform.token]),
    });
    await supervisor.start();
  }

  function filter(withMedia = true): EventFilter {
    const understanding = new MediaUnderstanding({
      store: media.store,
      state: test.state,
      limits: { maxBytes: 1024 * 1024, maxExtractChars: 1000 },
      logger: pino({ level: "silent" }),
    });
    return new EventFilter({
      registry,
      pairing: { isApproved: async () => false },
      index,
      ...(withMedia ? { media: understanding } : {}),
    });
  }

  /** What the channel emitted for the platform message `messageId`, as an inbox row `id`. */
  async function rowOf(messageId: string, id: number): Promise<InboxRow> {
    const event = await waitFor(
      () => emitted.find((e): e is InboundMessageEvent => e.type === "message" && e.ref.messageId === messageId),
      { timeoutMs: 5_000, message: `the channel's event of ${messageId}` },
    );
    return {
      id,
      channel: "memory",
      account: "default",
      eventId: event.eventId,
      sessionKey: null,
      event,
      status: "received",
      receivedAt: Date.now(),
    };
  }

  beforeEach(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    platform.addConversation({ id: "dm-bob", kind: "direct", members: [{ id: "bob", name: "Bob" }] });
    dir = await mkdtemp(join(tmpdir(), "chorus-events-"));
    test = await openTestState(undefined, dir);
    media = await openMedia(test.state.db, mediaSettingsOf(defaultMedia(), dir));
    index = new MessageIndex({ db: test.state.db, refs: test.state.refs });
    emitted.length = 0;
  });

  afterEach(async () => {
    await supervisor.stop();
    await platform.close();
    media.close();
    await index.flush();
    await test.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a photo is in the store before its event is shown, once, with what its bytes are", async () => {
    await start({ dmPolicy: "open" });
    const sent = platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
      mime: "application/octet-stream",
      filename: "cat.png",
      caption: "look",
    });
    const row = await rowOf(sent.id, 41);
    expect(JSON.stringify(row.event)).toContain('"source"');
    const events = filter();
    const shown = await events.view(row);
    expect(shown).toMatchObject({ type: "message", id: "41", messageId: sent.id, text: "look" });
    const [photo] = (shown as { attachments: { mediaId: string }[] }).attachments;
    expect(photo).toEqual({
      kind: "image",
      mime: "image/png",
      size: png.bytes.length,
      filename: "cat.png",
      mediaId: expect.stringMatching(/^med_/),
    });
    expect(await bytesOf(media, photo?.mediaId as string)).toEqual(Buffer.from(png.bytes));
    expect(JSON.stringify(shown)).not.toContain("source");
    // Replayed (a reconnect with Last-Event-ID): the same mediaId, nothing downloaded again.
    const served = platform.bytesServed;
    expect(await events.view(row)).toEqual(shown);
    expect(platform.bytesServed).toBe(served);
  });

  it("a location passes as data; a download the platform refuses is an error saying why, without secrets", async () => {
    await start({ dmPolicy: "open" });
    const pin = platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "location",
      location: { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" },
    });
    const shownPin = (await filter().view(await rowOf(pin.id, 1))) as { attachments: unknown[] };
    expect(shownPin.attachments).toEqual([
      { kind: "location", location: { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" } },
    ]);
    const row = await rowOf(
      platform.userSendsMedium({
        conversationId: "dm-ann",
        senderId: "ann",
        kind: "file",
        bytes: new Uint8Array(2 * 1024 * 1024),
        filename: "big.bin",
      }).id,
      2,
    );
    const shown = (await filter().view(row)) as { attachments: { error?: string; mediaId?: string }[] };
    expect(shown.attachments[0]?.mediaId).toBeUndefined();
    expect(shown.attachments[0]?.error).toMatch(/^E_TOO_LARGE: .*over 1 MB/);
    expect(JSON.stringify(shown)).not.toContain(platform.token);
  });

  it("recent_messages: a refused sender's attachments are not downloaded and say so; an allowed one's are stored", async () => {
    await start({ dmPolicy: "allowlist", allowFrom: ["ann"] });
    const medium = { kind: "image" as const, bytes: png.bytes, mime: "image/png" };
    const bob = await rowOf(platform.userSendsMedium({ conversationId: "dm-bob", senderId: "bob", ...medium }).id, 7);
    const ann = await rowOf(platform.userSendsMedium({ conversationId: "dm-ann", senderId: "ann", ...medium }).id, 8);
    const events = filter();
    expect(await events.view(bob)).toBeUndefined();
    const served = platform.bytesServed;
    const message = (row: InboxRow) => ({ ...row, event: row.event as InboundMessageEvent });
    expect(await events.attachments(message(bob))).toEqual([
      { kind: "image", mime: "image/png", size: png.bytes.length, filename: "file", error: NOT_ALLOWED },
    ]);
    expect(platform.bytesServed).toBe(served);
    expect(await events.attachments(message(ann))).toEqual([
      expect.objectContaining({ kind: "image", mediaId: expect.stringMatching(/^med_/) }),
    ]);
    expect(platform.bytesServed).toBe(served + png.bytes.length);
  });

  it("without the intake (no media store) attachments are shown without source or mediaId", async () => {
    await start({ dmPolicy: "open" });
    const sent = platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
    });
    const shown = (await filter(false).view(await rowOf(sent.id, 3))) as { attachments: Record<string, unknown>[] };
    expect(shown.attachments).toEqual([expect.objectContaining({ kind: "image" })]);
    expect(shown.attachments[0]).not.toHaveProperty("source");
    expect(shown.attachments[0]).not.toHaveProperty("mediaId");
  });
});
