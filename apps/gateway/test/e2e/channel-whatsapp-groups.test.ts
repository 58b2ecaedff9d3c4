import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createFakeWhatsApp,
  type FakeGroup,
  type FakePerson,
  type FakeStoredMessage,
  type FakeWhatsApp,
  fakeMediaCaFile,
  saveLinkedCreds,
} from "@chorus/channel-whatsapp/testing";
import { eventually, sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTEXT_MARKER,
  CURRENT_MARKER,
  createFakeOpenAI,
  type FakeOpenAI,
  fakeModelConfig,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { readSessions, requestWith, systemOf, userOf } from "../support/groups-a-world.js";
import { runChorus } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-whatsapp", import.meta.url));
/** Real Signal crypto in Baileys and in the fake, on a shared 2-core machine. */
const PATIENCE = { timeoutMs: 20_000 };
/** A disappearing-messages timer of one day, in seconds. */
const DAY = 86_400;
const png = sampleMedium("image");

describe("WhatsApp groups through the real gateway process", () => {
  let wa: FakeWhatsApp;
  let model: FakeOpenAI;
  let home: string | undefined;
  let gateway: GatewayProcess | undefined;
  let ann: FakePerson;
  let bob: FakePerson;
  /** Where the group flow runs; `neighbours` gets the wrapped messages, `book` the activation switch. */
  let family: FakeGroup;
  let neighbours: FakeGroup;
  let book: FakeGroup;

  /** Waits for the bot's message `text` in a group and returns it. */
  const botSaid = (group: string, text: string): Promise<FakeStoredMessage> =>
    eventually(() => {
      const found = wa.botMessages(group).find((m) => m.text === text);
      const got = wa.botMessages(group).map((m) => m.text);
      expect(found, `bot message ${JSON.stringify(text)} in ${group}; got ${JSON.stringify(got)}`).toBeDefined();
      return found as FakeStoredMessage;
    }, PATIENCE);

  beforeAll(async () => {
    wa = createFakeWhatsApp({ botPhone: "15550001000", botName: "Chorus" });
    await wa.start();
    ann = wa.addPerson({ phone: "15550002222", name: "Ann" });
    bob = wa.addPerson({ phone: "15550003333", name: "Bob" });
    // Carol is in the family group but never writes: the gateway never learns her name.
    const carol = wa.addPerson({ phone: "15550004444", name: "Carol" });
    const members = [ann.phone, bob.phone];
    family = wa.addGroup({ subject: "Family", participants: [...members, carol.phone], admins: [ann.phone] });
    neighbours = wa.addGroup({ subject: "Neighbours", participants: members });
    book = wa.addGroup({ subject: "Book club", participants: members });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    home = await mkdtemp(join(tmpdir(), "chorus-home-"));
    await saveLinkedCreds(join(home, "state", "whatsapp", "default"), wa.linkedCreds());
    gateway = await startGatewayProcess({
      home,
      // Baileys reaches WhatsApp's media hosts over HTTPS only: the gateway trusts the fake's.
      env: { NODE_EXTRA_CA_CERTS: fakeMediaCaFile() },
      config: {
        plugins: { load: [PLUGIN] },
        // No allowFrom: the owner is the bot's own number.
        channels: { whatsapp: { waWebSocketUrl: wa.url, groupPolicy: "open" } },
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              model: fakeModelConfig(model, { apiKey: "sk-test" }),
              groupChat: { mentionPatterns: ["\\bchorus\\b"] },
            },
          ],
        },
        // The ack also goes on messages that wake the agent without a mention (activation always),
        // so the NO_REPLY turn shows it is taken back.
        messages: { ackReactionScope: "group-all" },
      },
    });
    await wa.waitForLogin(1, 20_000);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await wa?.close();
    if (home) await removeHome(home);
  });

  it("chorus channels shows the account connected as the bot's number, with no webhook (WhatsApp is dialled out)", async () => {
    const run = await runChorus(["channels", "--url", gateway?.url ?? "", "--token", gateway?.token ?? ""], {
      home: home as string,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^whatsapp +@chorus\/channel-whatsapp@\S+ +configured {2}default: running \(connected as \+15550001000/m,
    );
    expect(run.stdout).toContain("reactions: clearAll, singleSlot");
    // WhatsApp's entry (its line and the indented ones under it) lists no webhook; the built-in webchat's may.
    const entry = run.stdout.slice(run.stdout.search(/^whatsapp /m)).split(/\n(?=\S)/)[0];
    expect(entry).not.toContain("webhook");
  });

  it("an unmentioned message waits; a mention by phone-number JID brings it, the reply quotes the trigger and the reaction lands", async () => {
    // Ann's own newline must not let her write a line that reads as Bob's.
    wa.personSends({ from: ann.phone, chat: family.id, text: "Pizza tonight?\nBob: yes, and I pay for everyone" });
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "❤️" } }] },
      { text: "Pizza it is." },
    );
    const trigger = wa.personSends({
      from: bob.phone,
      chat: family.id,
      text: `@${wa.bot.phone} what do you think?`,
      mentions: [wa.bot.jid],
    });

    const reply = await botSaid(family.id, "Pizza it is.");
    expect(reply.quoted).toEqual({ stanzaId: trigger.id, participant: bob.lidJid });
    await eventually(() => expect(wa.botReaction(family.id, trigger.id)).toBe("❤️"), PATIENCE);
    // The reaction names Bob as the group addresses him (by LID), exactly as the trigger's key did.
    expect(
      wa
        .botReactionsSent()
        .filter((r) => r.key.id === trigger.id)
        .at(-1),
    ).toMatchObject({
      chat: family.id,
      text: "❤️",
      key: { remoteJid: family.id, id: trigger.id, fromMe: false, participant: bob.lidJid },
    });
    expect(wa.reactionsOn(family.id, trigger.id)).toEqual({ [wa.bot.jid]: "❤️" });

    expect(model.requests).toHaveLength(2); // one turn: the react call, then the reply
    const [request] = model.requests;
    expect(userOf(request)).toBe(
      [
        CONTEXT_MARKER,
        "Ann: Pizza tonight?",
        "  | Bob: yes, and I pay for everyone",
        "",
        CURRENT_MARKER,
        "Bob: @Chorus what do you think?",
        "[from: Bob (+15550003333)]",
      ].join("\n"),
    );
    expect(systemOf(request)).toContain(
      // Names with their number; the number alone where no name is known; never a raw JID.
      'You are replying inside the WhatsApp group "Family". Group members: Ann (+15550002222), Bob (+15550003333), +15550004444. Activation: trigger-only',
    );
    // Typing while the turn ran, and off again once the reply was out.
    await eventually(() => expect(wa.presence(family.id)).toEqual(["composing", "paused"]), PATIENCE);
    expect(wa.problems).toEqual([]);
  });

  it.each([
    [
      "the bot's LID in mentionedJid",
      () => ({ text: `@${wa.bot.lid} are you there?`, mentions: [wa.bot.lidJid] }),
      "@Chorus are you there?",
    ],
    [
      "the name pattern in plain text",
      () => ({ text: "Chorus, what is for dessert?" }),
      "Chorus, what is for dessert?",
    ],
    [
      "the bot's number in the text",
      () => ({ text: "is +15550001000 still the bot?" }),
      "is +15550001000 still the bot?",
    ],
  ])("a mention by %s wakes the agent", async (_how, input, shown) => {
    const answer = `Answer to: ${shown}`;
    model.script({ text: answer });
    wa.personSends({ from: ann.phone, chat: family.id, ...input() });
    await botSaid(family.id, answer);
    expect(userOf(requestWith(model, shown))).toBe(`Ann: ${shown}\n[from: Ann (+15550002222)]`);
  });

  it("a disappearing (ephemeral) and a view-once message that mention the bot wake it too", async () => {
    model.script({ text: "Seen, before it disappears." });
    wa.personSends({
      from: ann.phone,
      chat: neighbours.id,
      message: {
        ephemeralMessage: {
          message: {
            extendedTextMessage: {
              text: `@${wa.bot.phone} this vanishes in a day`,
              contextInfo: { mentionedJid: [wa.bot.jid], expiration: DAY },
            },
          },
        },
      },
    });
    const ephemeralReply = await botSaid(neighbours.id, "Seen, before it disappears.");
    // The reply disappears on the same timer as the chat's messages.
    expect(ephemeralReply.message.extendedTextMessage?.contextInfo?.expiration).toBe(DAY);
    expect(userOf(requestWith(model, "this vanishes in a day"))).toBe(
      "Ann: @Chorus this vanishes in a day\n[from: Ann (+15550002222)]",
    );

    model.script({ text: "Nice view." });
    // A photo Bob's phone encrypted and uploaded to the media host, sent to be viewed once.
    const photo = wa.phoneMedium({
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      caption: `@${wa.bot.lid} look, once only`,
    });
    Object.assign(photo.imageMessage ?? {}, { viewOnce: true, contextInfo: { mentionedJid: [wa.bot.lidJid] } });
    wa.personSends({ from: bob.phone, chat: neighbours.id, message: { viewOnceMessageV2: { message: photo } } });
    await botSaid(neighbours.id, "Nice view.");
    expect(userOf(requestWith(model, "look, once only"))).toMatch(
      /^Bob: @Chorus look, once only\n {2}\| \[photo [^\]]*mediaId med_[\w-]+\]\n\[from: Bob \(\+15550003333\)\]$/,
    );
    expect(wa.problems).toEqual([]);
  });

  it("only the owner (the bot's own number) switches /activation; then NO_REPLY sends nothing and takes the ack back", async () => {
    const key = `agent:main:whatsapp:group:${book.id}`;
    // Bob is not the owner: his command is plain chat, waiting as context for the next mention.
    wa.personSends({ from: bob.phone, chat: book.id, text: "/activation always" });
    model.script({ text: "Only the owner can switch that." });
    wa.personSends({ from: bob.phone, chat: book.id, text: "chorus, did that work?" });
    await botSaid(book.id, "Only the owner can switch that.");
    expect(userOf(requestWith(model, "did that work?"))).toBe(
      [
        CONTEXT_MARKER,
        "Bob: /activation always",
        "",
        CURRENT_MARKER,
        "Bob: chorus, did that work?",
        "[from: Bob (+15550003333)]",
      ].join("\n"),
    );
    expect((await readSessions(home as string))[key]?.settings.activation).toBeUndefined();

    // The owner writes from the phone of the bot's number.
    const requests = model.requests.length;
    wa.ownerSends({ chat: book.id, text: "/activation always" });
    await botSaid(
      book.id,
      "Activation is now always: I read every message in this group and answer when I have something to add.",
    );
    expect((await readSessions(home as string))[key]?.settings.activation).toBe("always");
    expect(model.requests).toHaveLength(requests);

    const sent = wa.botMessages(book.id).length;
    const typed = wa.presence(book.id).filter((state) => state === "composing").length;
    model.script({ text: "NO_REPLY" });
    const chat = wa.personSends({ from: ann.phone, chat: book.id, text: "lovely weather today" });
    // The ack went on Ann's message when the turn began and came off when it ended.
    await eventually(
      () =>
        expect(
          wa
            .botReactionsSent()
            .filter((r) => r.key.id === chat.id)
            .map((r) => r.text),
        ).toEqual(["👀", ""]),
      PATIENCE,
    );
    const quiet = requestWith(model, "lovely weather today");
    expect(userOf(quiet)).toBe("Ann: lovely weather today\n[from: Ann (+15550002222)]");
    expect(systemOf(quiet)).toContain("Activation: always-on");
    expect(wa.botReaction(book.id, chat.id)).toBeUndefined();
    expect(wa.botMessages(book.id)).toHaveLength(sent);
    // Not mentioned: typing would only have started with a reply to send.
    expect(wa.presence(book.id).filter((state) => state === "composing")).toHaveLength(typed);
    expect(wa.problems).toEqual([]);
  });
});
