import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageRef } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../testing/index.js";
import { MessageIndex } from "./message-index.js";
import { recentMessages } from "./recent-messages.js";
import { type StateConfig, StateStore } from "./state-store.js";

const BACKENDS: { name: string; config: () => Promise<StateConfig> }[] = [
  { name: "sqlite", config: async () => ({ backend: "sqlite" }) },
  { name: "postgres", config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("recent") }) },
];

const ref = (messageId: string): MessageRef => ({
  channel: "memory",
  accountId: "default",
  conversationId: "team",
  messageId,
});

describe.each(BACKENDS)("recent_messages on $name: newest by when they were sent or received", ({ config }) => {
  let home: string;
  let state: StateStore;
  let index: MessageIndex;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "chorus-recent-"));
    state = await StateStore.open(await config(), { home });
    index = new MessageIndex({ db: state.db, refs: state.refs });
  });
  afterEach(async () => {
    await index.flush();
    await state.close();
    await rm(home, { recursive: true, force: true });
  });

  it("a reaction to an old message does not make it the newest, nor push the newest out of the limit", async () => {
    // Received one by one, the way the inbox commits them; the bot's reply is put when sent.
    for (const [i, id] of ["m1", "m2", "m3"].entries()) {
      await state.inbox.accept(
        [
          {
            channel: "memory",
            account: "default",
            eventId: `ev-${id}`,
            sessionKey: "s",
            event: {
              type: "message",
              conversation: { id: "team", kind: "group" },
              sender: { id: "ann" },
              text: id,
              ref: ref(id),
              timestamp: i,
            },
            refs: [ref(id)],
          },
        ],
        i,
      );
    }
    index.put({ ...ref("b1"), fromBot: true });
    await index.flush();
    // Someone reacts to m1: the reaction's target is put again, as the reaction notifier does.
    index.put({ ...ref("m1"), data: { learned: "from the reaction" } });
    await index.flush();
    const where = { channel: "memory", account: "default", conversation: "team" };
    expect((await recentMessages(state.db, where, 3)).map((m) => m.messageId)).toEqual(["m2", "m3", "b1"]);
    expect((await recentMessages(state.db, where, 10)).map((m) => m.messageId)).toEqual(["m1", "m2", "m3", "b1"]);
    // The ref itself is the newer one: what the reaction taught is kept.
    expect(
      await index.get({ channel: "memory", accountId: "default", conversationId: "team", messageId: "m1" }),
    ).toMatchObject({
      data: { learned: "from the reaction" },
    });
  });

  it("an inbound message lists its attachments: without the plugin's source, or as the gateway shows them", async () => {
    const photo = { kind: "image" as const, mime: "image/png", size: 90, source: { fileId: "f-secret" } };
    const pin = { kind: "location" as const, location: { latitude: 1, longitude: 2 } };
    await state.inbox.accept(
      [
        {
          channel: "memory",
          account: "default",
          eventId: "ev-p",
          sessionKey: "s",
          event: {
            type: "message",
            conversation: { id: "team", kind: "group" },
            sender: { id: "ann" },
            text: "",
            attachments: [photo, pin],
            ref: ref("p1"),
            timestamp: 5,
          },
          refs: [ref("p1")],
        },
      ],
      5,
    );
    const where = { channel: "memory", account: "default", conversation: "team" };
    const [plain] = await recentMessages(state.db, where, 1);
    expect(plain).toMatchObject({ messageId: "p1", text: "" });
    expect(plain?.attachments).toEqual([{ kind: "image", mime: "image/png", size: 90 }, pin]);
    const asked: { id: number; messageId: string }[] = [];
    const [shown] = await recentMessages(state.db, where, 1, async (message) => {
      asked.push({ id: message.id, messageId: message.event.ref.messageId });
      return [{ kind: "image", mediaId: "med_abcdefgh" }, pin];
    });
    expect(shown?.attachments).toEqual([{ kind: "image", mediaId: "med_abcdefgh" }, pin]);
    const [row] = await state.inbox.after(0, 10);
    expect(asked).toEqual([{ id: Number(row?.id), messageId: "p1" }]);
  });
});
