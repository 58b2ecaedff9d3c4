import { randomUUID } from "node:crypto";
import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import { waitFor } from "../fake-server/index.js";
import type { ContractCase } from "./cases.js";
import { networkHook } from "./fixture-hooks.js";
import type { ChannelHarness } from "./harness.js";
import { check } from "./violation.js";

const isMessage =
  (text: string) =>
  (event: InboundEvent): event is InboundMessageEvent =>
    event.type === "message" && event.text.includes(text);

/** Someone writes `text`; resolves with its event once the plugin emitted it. */
async function delivered(h: ChannelHarness, text: string): Promise<InboundMessageEvent> {
  await h.within(`delivering "${text}"`, Promise.resolve(h.fixture.userSends(text, h.running.hooksUrl)));
  try {
    return await h.running.waitForEvent(isMessage(text), h.stepTimeoutMs);
  } catch {
    check(false, `a message someone wrote ("${text}") was never emitted as an inbound event`);
    throw new Error("unreachable");
  }
}

/** A text no other case uses. */
const unique = (what: string) => `contract ${what} ${randomUUID().slice(0, 8)}`;

/** The inbound rules every channel must keep (DESIGN §3, CHANNELS.md "Inbound"). */
export const INBOUND_CASES: readonly ContractCase<ChannelHarness>[] = [
  {
    name: "inbound: a message someone writes is emitted once, normalised, with a ref of this channel and account",
    applies: () => true,
    async run(h) {
      const text = unique("hello");
      const event = await delivered(h, text);
      check(typeof event.eventId === "string" && event.eventId !== "", "the event needs a non-empty eventId");
      check(
        event.ref.channel === h.plugin.id,
        `the ref must name channel "${h.plugin.id}", it names "${event.ref.channel}"`,
      );
      check(
        event.ref.accountId === h.running.ctx.accountId,
        `the ref must name account "${h.running.ctx.accountId}", it names "${event.ref.accountId}"`,
      );
      check(
        event.ref.conversationId === event.conversation.id,
        `the ref's conversation (${event.ref.conversationId}) must be the event's (${event.conversation.id})`,
      );
      const bot = h.instance.identity?.();
      check(!bot || event.sender.id !== bot.id, "a person's message must not carry the bot as its sender");
      check(event.ref.fromBot !== true, "a person's message must not be marked fromBot");
    },
  },
  {
    name: "inbound: the bot's own messages are not emitted",
    applies: () => true,
    async run(h) {
      const own = unique("own echo");
      await h.record(h.instance.send(h.fixture.conversation, { text: own }));
      await delivered(h, unique("after the echo"));
      const echoes = h.running.events.filter((e) => e.type === "message" && e.text.includes(own));
      check(echoes.length === 0, `the bot's own message was emitted as inbound: ${JSON.stringify(echoes[0])}`);
      const bot = h.instance.identity?.();
      const fromBot = h.running.events.filter((e) => e.type === "message" && bot && e.sender.id === bot.id);
      check(fromBot.length === 0, "an event with the bot as its sender was emitted");
    },
  },
  {
    name: "inbound: a redelivered event is emitted once (the same eventId)",
    applies: () => true,
    async run(h) {
      const text = unique("redelivered");
      await delivered(h, text);
      const redeliver = networkHook(h.fixture, "redeliverLast");
      // In process nothing is redelivered; what must hold instead is that a restart replays nothing.
      if (redeliver) await h.within("redelivering the last event", Promise.resolve(redeliver(h.running.hooksUrl)));
      else await h.restart();
      await delivered(h, unique("after the redelivery"));
      const copies = h.running.events.filter(isMessage(text));
      check(
        copies.length === 1,
        `a redelivered event was emitted ${copies.length} times with different eventIds (${copies.map((e) => e.eventId).join(", ")})`,
      );
    },
  },
  {
    name: "inbound: an event whose commit fails is not acknowledged — delivered or emitted again until it is committed, once",
    applies: () => true,
    async run(h) {
      const text = unique("commit refused");
      h.running.refuseCommit(isMessage(text));
      await h.within(`delivering "${text}"`, Promise.resolve(h.fixture.userSends(text, h.running.hooksUrl)));
      try {
        await h.running.waitForEvent(isMessage(text), h.stepTimeoutMs);
      } catch {
        const tried = h.running.refused.some(isMessage(text));
        check(
          false,
          tried
            ? `the host failed the commit of "${text}" once and it was never emitted again: the platform was told it was received before the commit (or the plugin dropped it), so it is lost`
            : `a message someone wrote ("${text}") was never emitted as an inbound event`,
        );
      }
      check(
        h.running.refused.filter(isMessage(text)).length === 1,
        `"${text}" should have been refused once by the host`,
      );
      const copies = h.running.events.filter(isMessage(text));
      check(
        copies.length === 1,
        `"${text}" was committed ${copies.length} times under different eventIds (${copies.map((e) => e.eventId).join(", ")})`,
      );
      await delivered(h, unique("after the refused commit"));
    },
  },
  {
    name: "inbound: a forged webhook is refused (401/403) and nothing is emitted",
    applies: () => true,
    async run(h) {
      if (!h.fixture.forgeWebhook) {
        // Nothing to forge only when the plugin listens on no webhook at all.
        check(
          h.running.routes.length === 0,
          `the plugin registers webhooks (${h.running.routes.join(", ")}) but the fixture has no forgeWebhook to test them`,
        );
        return;
      }
      const text = unique("forged");
      const status = await h.within("posting a forged webhook", h.fixture.forgeWebhook(h.running.hooksUrl, text));
      check(status === 401 || status === 403, `a forged webhook was answered ${status}, not 401 or 403`);
      await delivered(h, unique("after the forgery"));
      check(!h.running.events.some(isMessage(text)), "a forged webhook's message was emitted");
    },
  },
  {
    name: "inbound: a payload the plugin cannot parse is logged as a warning, never dropped without a trace",
    applies: () => true,
    async run(h) {
      const unparseable = networkHook(h.fixture, "deliverUnparseable");
      if (!unparseable) {
        // In process the plugin receives typed events, never raw payloads: it must listen on no webhook.
        check(
          h.running.routes.length === 0,
          `an in-process channel registers webhooks: ${h.running.routes.join(", ")}`,
        );
        return;
      }
      const before = h.running.logs.at("warn", true).length;
      await h.within("delivering an unparseable payload", Promise.resolve(unparseable(h.running.hooksUrl)));
      await delivered(h, unique("after the garbage"));
      try {
        await waitFor(() => h.running.logs.at("warn", true).length > before, { timeoutMs: h.stepTimeoutMs });
      } catch {
        check(false, "an unparseable payload left no warning in the log");
      }
      const warning = h.running.logs.at("warn", true)[before];
      check(
        (warning?.message ?? "").trim() !== "",
        "the warning about an unparseable payload needs a message saying what was wrong",
      );
    },
  },
];
