import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import { type RunningChannel, sampleMedium, waitFor } from "@chorus/testkit";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, isText, telegramSession } from "./fake-group.test-util.js";

const HOOK = "https://bot.example.com/hooks/telegram/default";
const SECRET = "s3cret_token-ABC";
/** A short album window, so the tests wait a fraction of Telegram's second. */
const WINDOW = { albumWindowMs: 200 };

const isAlbum = (event: InboundEvent): event is InboundMessageEvent =>
  event.type === "message" && (event.attachments?.length ?? 0) === 3;

/** An event in a word: `album`, a message's text, or its type. */
const label = (event: InboundEvent) =>
  event.type !== "message" ? event.type : (event.attachments?.length ?? 0) === 3 ? "album" : event.text;

/** Three photos, the caption on the second: what a person's album looks like to the bot. */
function albumSamples() {
  const photo = sampleMedium("image");
  return [0, 1, 2].map((i) => ({
    kind: "image" as const,
    // Different bytes per item, so their order shows.
    bytes: Uint8Array.from([...photo.bytes, i]),
    mime: photo.mime,
    ...(i === 1 ? { caption: "Holiday, day 1" } : {}),
  }));
}

/** Calls `look` at each emit, before the host commits it (the host's own hook, which refuses nothing here). */
function atEachEmit(running: RunningChannel, look: (event: InboundEvent) => void): void {
  running.refuseCommit((event) => {
    look(event);
    return false;
  }, Number.POSITIVE_INFINITY);
}

describe("albums, long polling: one message, confirmed once it is committed", () => {
  const t = telegramSession(WINDOW);

  it("three photos sharing a media_group_id are one event: attachments in order, the caption wherever it was, the offset confirmed once after the commit", async () => {
    const running = await t.start();
    const pendingAtEmit: boolean[][] = [];
    const items = t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    const ids = items.map((m) => (t.fake.state.pending.find((u) => u.message === m) as Update).update_id);
    atEachEmit(running, () => pendingAtEmit.push(ids.map((id) => t.fake.state.isPending(id))));

    const album = await running.waitForEvent(isAlbum);
    expect(album).toMatchObject({
      eventId: String(ids[0]),
      text: "Holiday, day 1",
      ref: { messageId: String(items[0]?.message_id) },
    });
    expect(album.attachments?.map((a) => (a.source as { fileId: string }).fileId)).toEqual(
      items.map((m) => m.photo?.at(-1)?.file_id),
    );
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the album confirmed" });
    // A later message answers the long poll that confirmed the album, so the fake has recorded it.
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "later" });
    await running.waitForEvent(isText("later"));
    // At the commit nothing of it was confirmed yet; then all of it at once: no offset in between.
    expect(pendingAtEmit.slice(0, 1)).toEqual([[true, true, true]]);
    const offsets = t.fake.server
      .requestsTo("POST", /\/getUpdates$/)
      .map((r) => (r.body as { offset?: number }).offset);
    expect(offsets).not.toContain((ids[0] as number) + 1);
    expect(offsets).not.toContain((ids[0] as number) + 2);
    expect(offsets).toContain((ids[2] as number) + 1);
    expect(running.events.filter((e) => e.type === "message")).toHaveLength(2);
  });

  it("a commit the gateway refuses: Telegram hands the whole album out again, and it is one event again", async () => {
    const running = await t.start();
    running.refuseCommit(isAlbum);
    t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    await running.waitForEvent(isAlbum);
    await waitFor(() => t.fake.state.pending.length === 0, { message: "the album confirmed" });
    expect(running.refused.map((e) => e.type === "message" && e.attachments?.length)).toEqual([3]);
    expect(running.events.filter((e) => e.type === "message")).toEqual([
      expect.objectContaining({ eventId: running.refused[0]?.eventId, attachments: expect.any(Array) }),
    ]);
  });

  it("items that arrive after the poll that brought the first are still the same album (the poller asks again within the window)", async () => {
    const running = await t.start();
    const [first, ...rest] = albumSamples();
    const handedOut: number[] = [];
    t.fake.state.hooks.delivered = (updates) => handedOut.push(...updates.map((u) => u.update_id));
    const group = "13999999999999999";
    t.fake.userSendsMedium({ chatId: GROUP, from: ANN, sample: first as (typeof rest)[number], mediaGroupId: group });
    await waitFor(() => handedOut.length > 0, { message: "the first item handed out" });
    for (const sample of rest) t.fake.userSendsMedium({ chatId: GROUP, from: ANN, sample, mediaGroupId: group });
    const album = await running.waitForEvent(isAlbum);
    expect(album.text).toBe("Holiday, day 1");
    expect(running.events.filter((e) => e.type === "message")).toHaveLength(1);
  });

  it("a text sent after the album comes after it", async () => {
    const running = await t.start({}, { start: false });
    t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "nice, right?" });
    await running.instance.start();
    await running.waitForEvent(isText("nice, right?"));
    expect(running.events.map(label)).toEqual(["album", "nice, right?"]);
  });
});

describe("albums, webhook: each item answered once it is safe in the store; one message once the album is complete", () => {
  const t = telegramSession(
    { webhookUrl: HOOK, secretToken: SECRET, ...WINDOW },
    { webhookRetry: { delayMs: 20, attempts: 100 } },
  );

  it("Telegram posts the items one after another; each is answered 200 from the store; the album is one event; the store is emptied after the commit", async () => {
    const running = await t.start();
    t.fake.forwardWebhook(`${running.hooksUrl}/hooks/telegram/default`);
    const storedAtEmit: number[] = [];
    atEachEmit(running, () => void running.store.list("albumItems/").then((items) => storedAtEmit.push(items.length)));
    const items = t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    t.fake.userSends({ chatId: GROUP, from: ANN, text: "after the album" });

    const album = await running.waitForEvent(isAlbum);
    expect(album.text).toBe("Holiday, day 1");
    await running.waitForEvent(isText("after the album"));
    await waitFor(() => t.fake.state.pending.length === 0, { message: "everything confirmed" });
    // Telegram's one-update-per-chat order: each item answered 200 (not held until the commit), then the text.
    expect(t.fake.webhookAttempts.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(running.events.map(label)).toEqual(["album", "after the album"]);
    expect(album.ref.messageId).toBe(String(items[0]?.message_id));
    expect(storedAtEmit[0]).toBe(3);
    await waitFor(async () => (await running.store.list("albumItems/")).length === 0, { message: "the store emptied" });
  });

  it("a crash before the window closed: the items wait in the store, and the next start emits the album", async () => {
    const running = await t.start({ albumWindowMs: 1_000 });
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    const items = t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    const updates = items.map((m) => t.fake.state.pending.find((u) => u.message === m) as Update);
    for (const update of updates) expect((await t.fake.deliver(hook, update)).status).toBe(200);
    await running.restart();
    expect(running.events).toEqual([]);
    const album = await running.waitForEvent(isAlbum);
    expect(album.eventId).toBe(String(updates[0]?.update_id));
    await waitFor(async () => (await running.store.list("albumItems/")).length === 0, { message: "the store emptied" });
    // Telegram posts an item again (its answer lost): recognised, answered, not a second message.
    expect((await t.fake.deliver(hook, updates[1] as Update)).status).toBe(200);
    expect(running.events).toHaveLength(1);
  });

  it("a commit the gateway refuses: the album is kept and emitted again until committed, once", async () => {
    const running = await t.start();
    t.fake.forwardWebhook(`${running.hooksUrl}/hooks/telegram/default`);
    running.refuseCommit(isAlbum, 2);
    t.fake.userSendsAlbum({ chatId: GROUP, from: ANN, samples: albumSamples() });
    await running.waitForEvent(isAlbum);
    expect(running.refused).toHaveLength(2);
    expect(running.events).toHaveLength(1);
    expect(t.fake.webhookAttempts.map((a) => a.status)).toEqual([200, 200, 200]);
    await waitFor(async () => (await running.store.list("albumItems/")).length === 0, { message: "the store emptied" });
  });
});
