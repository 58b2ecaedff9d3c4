import { type BinaryNode, getContentType, isLidUser, normalizeMessageContent, proto } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import { type FakeContext, reportProblem } from "./context.js";
import type { FakeDevice } from "./fake-device.js";
import { bytesOf, child, children, unixSeconds } from "./nodes.js";
import { REFUSAL } from "./outage.js";

/**
 * Takes a `<message>` the bot sent: has every recipient device decrypt its copy (pkmsg/msg per
 * device, skmsg for groups after the sender keys arrived), files the content (a new message, a
 * reaction, an edit or a deletion), and only then acks it with the same id, like the server
 * does, so a client that waits for the ack sees the new state. A queued message fault refuses it
 * instead (`<ack error>`, nothing filed) or files it without an ack.
 */
export async function receiveBotMessage(ctx: FakeContext, connection: FakeConnection, node: BinaryNode): Promise<void> {
  const { id = "", to = "" } = node.attrs;
  const ack = (error?: number) =>
    connection.send({
      tag: "ack",
      attrs: {
        class: "message",
        id,
        from: to,
        t: unixSeconds(),
        ...(error === undefined ? {} : { error: String(error) }),
      },
    });
  if (node.attrs.category === "peer") return ack();
  if (ctx.outage === "refuse") {
    // Read (so the devices' Signal sessions and sender keys stay in step) but not filed.
    await readMessage(ctx, connection, node);
    return ack(REFUSAL.code);
  }
  const fault = ctx.messageFaults.shift();
  if (fault?.kind === "refuse") return ack(fault.error);
  await readAndFile(ctx, connection, node);
  if (fault?.kind !== "no-ack") ack();
}

async function readAndFile(ctx: FakeContext, connection: FakeConnection, node: BinaryNode): Promise<void> {
  const read = await readMessage(ctx, connection, node);
  if (read) file(ctx, read.chat, read.id, read.content);
}

/** The content the bot's message carries, as the recipients' devices decrypt it. */
async function readMessage(
  ctx: FakeContext,
  connection: FakeConnection,
  node: BinaryNode,
): Promise<{ chat: string; id: string; content: proto.IMessage } | undefined> {
  const { id = "", to = "" } = node.attrs;
  const senders = botAddresses(ctx, connection.device);
  const chat = ctx.directory.chatOf(to);
  const copies: proto.IMessage[] = [];
  let ownCopy: proto.IMessage | undefined;
  for (const recipient of children(child(node, "participants"), "to")) {
    const jid = recipient.attrs.jid ?? "";
    const message = await decryptCopy(ctx, senders.lid, senders.for(jid), jid, child(recipient, "enc"));
    if (!message) continue;
    if (message.deviceSentMessage?.message) ownCopy = message.deviceSentMessage.message;
    else if (getContentType(message)) copies.push(message);
  }
  const direct = child(node, "enc");
  if (direct?.attrs.type === "skmsg") {
    const content = await decryptForGroup(ctx, chat, [senders.lid, senders.pn], bytesOf(direct));
    if (content) copies.unshift(content);
  } else if (direct && node.attrs.participant) {
    const { participant } = node.attrs;
    const content = await decryptCopy(ctx, senders.lid, senders.for(participant), participant, direct);
    if (content) copies.unshift(content.deviceSentMessage?.message ?? content);
  }
  const content = copies[0] ?? ownCopy;
  if (!content) {
    reportProblem(ctx, `no device could read the bot's message ${id} to ${to}`);
    return undefined;
  }
  return { chat, id, content };
}

/**
 * The bot device's addresses as the fake devices know it. Like Baileys 7 (which files a session
 * under the LID once it knows a phone number's LID), a device keeps one Signal session with the
 * bot's device, whichever JID the bot addressed it by; sender keys are named by the author JID
 * the chat uses (the LID in LID chats, the phone-number JID otherwise).
 */
function botAddresses(ctx: FakeContext, device: number): { lid: string; pn: string; for(recipient: string): string } {
  const { bot } = ctx.directory;
  const lid = `${bot.lid}:${device}@lid`;
  const pn = `${bot.phone}:${device}@s.whatsapp.net`;
  return { lid, pn, for: (recipient) => (isLidUser(recipient) ? lid : pn) };
}

/** One device's copy: decrypted with its Signal session; a sender key in it is stored under `author`. */
async function decryptCopy(
  ctx: FakeContext,
  session: string,
  author: string,
  deviceJid: string,
  enc: BinaryNode | undefined,
): Promise<proto.Message | undefined> {
  const device = ctx.directory.deviceFor(deviceJid);
  const type = enc?.attrs.type;
  const ciphertext = bytesOf(enc);
  if (!device || (type !== "pkmsg" && type !== "msg") || !ciphertext) {
    reportProblem(ctx, `the bot encrypted for ${deviceJid} (${type}), which the fake cannot decrypt`);
    return undefined;
  }
  try {
    const message = await device.decrypt(session, type, ciphertext);
    const senderKey = message.senderKeyDistributionMessage;
    if (senderKey) await device.receiveSenderKey(author, senderKey);
    return message;
  } catch (error) {
    reportProblem(ctx, `${deviceJid} could not decrypt the bot's ${type}`, error);
    return undefined;
  }
}

/** The group message, as each member device holding the bot's sender key reads it. */
async function decryptForGroup(
  ctx: FakeContext,
  group: string,
  senders: string[],
  ciphertext: Buffer | undefined,
): Promise<proto.Message | undefined> {
  const known = ctx.directory.groups.get(group);
  if (!known || !ciphertext) {
    reportProblem(ctx, `the bot sent an skmsg to ${group}, which the fake does not know`);
    return undefined;
  }
  const members: FakeDevice[] = known.participants.map((phone) => ctx.directory.memberByPhone(phone).phoneDevice);
  const sender = senders.find((address) => members.some((device) => device.hasSenderKey(group, address))) ?? "";
  const devices = members.filter((device) => device.hasSenderKey(group, sender));
  let content: proto.Message | undefined;
  for (const device of devices) {
    try {
      content ??= await device.decryptGroup(group, sender, ciphertext);
    } catch (error) {
      reportProblem(ctx, `a member of ${group} could not decrypt the bot's skmsg`, error);
    }
  }
  if (!content) reportProblem(ctx, `no member of ${group} holds the bot's sender key`);
  return content;
}

/** Applies what the bot sent to the platform state. */
function file(ctx: FakeContext, chat: string, id: string, raw: proto.IMessage): void {
  const { store, directory } = ctx;
  const content = normalizeMessageContent(raw);
  const reaction = content?.reactionMessage;
  if (reaction) {
    const key = proto.MessageKey.toObject(proto.MessageKey.fromObject(reaction.key ?? {}));
    const text = reaction.text ?? "";
    if (key.id) store.react(chat, key.id, directory.bot.jid, text);
    store.botReactions.push({ chat, key, text, at: Date.now() });
    return;
  }
  const protocol = content?.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (target && protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) store.revoke(chat, target);
    if (target && protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
      store.edit(chat, target, protocol.editedMessage);
    }
    return;
  }
  store.add({ id, chat, sender: directory.bot.jid, origin: "bot", raw, timestamp: Number(unixSeconds()) });
}
