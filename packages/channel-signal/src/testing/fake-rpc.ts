import type { FakePerson } from "./fake-envelopes.js";
import type { FakeMessage, FakeSignalState } from "./fake-state.js";

/** A JSON-RPC error as signal-cli answers it (HTTP 200). */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** How the next calls of a method fail: a per-recipient result type, or a JSON-RPC error. */
export type InjectedFailure =
  | { type: "RATE_LIMIT_FAILURE"; retryAfterSeconds?: number }
  | { type: "NETWORK_FAILURE" | "UNREGISTERED_FAILURE" | "IDENTITY_FAILURE" }
  | { code: number; message: string };

const USER_ERROR = -1;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

type Params = Record<string, unknown>;

/** What the methods need besides the state: failures to inject and a way to say who was messaged. */
export interface RpcWorld {
  readonly state: FakeSignalState;
  /** Takes the next injected failure of `method`, if any. */
  takeFailure(method: string): InjectedFailure | undefined;
}

const list = (value: unknown): string[] =>
  value === undefined || value === null ? [] : (Array.isArray(value) ? value : [value]).map(String);

/** The send-like methods: `send`, `sendReaction`, `sendTyping`, with signal-cli's parameters and results. */
export const SEND_METHODS: Record<string, (world: RpcWorld, params: Params) => unknown> = {
  send(world, params) {
    const message = typeof params.message === "string" ? params.message : "";
    const quoteTimestamp = params.quoteTimestamp;
    // Read before anything is sent, as signal-cli reads them before it uploads.
    const files = world.state.media.readAttachments(params);
    if (message === "" && files.length === 0 && quoteTimestamp === undefined) {
      throw new RpcFailure(
        USER_ERROR,
        "Sending empty message is not allowed, either a message, attachment or sticker must be given.",
      );
    }
    const mentions = list(params.mention ?? params.mentions).map((m) => parseRange(m, "mention", "recipientNumber"));
    const textStyles = list(params.textStyle ?? params.textStyles).map((s) => parseRange(s, "textStyle", "STYLE"));
    for (const style of textStyles) {
      if (!["NONE", "BOLD", "ITALIC", "SPOILER", "STRIKETHROUGH", "MONOSPACE"].includes(style.what)) {
        throw new RpcFailure(USER_ERROR, `Invalid style: ${style.what}`);
      }
    }
    let quote: FakeMessage["quote"];
    if (quoteTimestamp !== undefined) {
      if (typeof params.quoteAuthor !== "string") throw new RpcFailure(USER_ERROR, "Quote author parameter is missing");
      quote = { timestamp: Number(quoteTimestamp), author: personOf(world, params.quoteAuthor).uuid };
    }
    return deliver(world, "send", params, (to, timestamp) =>
      world.state.record({
        timestamp,
        author: world.state.bot.uuid,
        to,
        text: message,
        mentions: mentions.map((m) => `${m.start}:${m.length}:${personOf(world, m.what).uuid}`),
        textStyles: textStyles.map((s) => `${s.start}:${s.length}:${s.what}`),
        ...(quote && { quote }),
        // Uploaded once, for every recipient (AttachmentHelper.uploadAttachments).
        ...(files.length > 0 && { attachments: files.map((f, i) => ({ id: `${timestamp}-${i}`, ...f })) }),
      }),
    );
  },

  sendReaction(world, params) {
    const emoji = String(params.emoji ?? "");
    // Stricter than signal-cli, which passes anything on: a shortcode sent as a reaction is a plugin bug.
    if (
      [...graphemes.segment(emoji)].length !== 1 ||
      !/\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(emoji)
    ) {
      throw new RpcFailure(USER_ERROR, `Invalid emoji: ${emoji} (should be a single unicode grapheme cluster)`);
    }
    const author = personOf(world, String(params.targetAuthor ?? ""));
    const timestamp = Number(params.targetTimestamp);
    return deliver(world, "sendReaction", params, () =>
      world.state.react(world.state.bot.uuid, author.uuid, timestamp, emoji, params.remove === true),
    );
  },

  sendTyping(world, params) {
    return deliver(world, "sendTyping", params, (to) => world.state.typing.set(to, params.stop !== true));
  },
};

/** Sends to a recipient or group the way signal-cli reports it: one result per recipient. */
function deliver(world: RpcWorld, method: string, params: Params, effect: (to: string, timestamp: number) => unknown) {
  const { state } = world;
  const groupIds = list(params.groupId);
  const recipients = list(params.recipient);
  if (groupIds.length + recipients.length === 0) throw new RpcFailure(USER_ERROR, "No recipients given");
  const timestamp = state.now();
  const results: Record<string, unknown>[] = [];
  const targets: { to: string; members: FakePerson[]; groupId?: string }[] = [];
  for (const groupId of groupIds) {
    const group = state.groups.get(groupId);
    if (!group) throw new RpcFailure(USER_ERROR, `Group not found: ${groupId}`);
    if (!group.members.includes(state.bot.uuid))
      throw new RpcFailure(USER_ERROR, `User is not a member in group: ${groupId}`);
    const members = group.members.filter((m) => m !== state.bot.uuid).map((m) => state.people.get(m) as FakePerson);
    targets.push({ to: groupId, members, groupId });
  }
  for (const recipient of recipients) {
    const person = state.person(recipient);
    const unknown = { uuid: null, number: recipient.startsWith("+") ? recipient : null, name: null };
    targets.push({ to: person?.uuid ?? recipient, members: [person ?? (unknown as unknown as FakePerson)] });
  }
  const failure = world.takeFailure(method);
  let succeeded = false;
  for (const target of targets) {
    for (const member of target.members) {
      const type =
        member.uuid === null ? "UNREGISTERED_FAILURE" : failure && "type" in failure ? failure.type : "SUCCESS";
      succeeded ||= type === "SUCCESS";
      results.push({
        recipientAddress: { uuid: member.uuid, number: member.number, username: null },
        ...(target.groupId && { groupId: target.groupId }),
        type,
        ...(type === "RATE_LIMIT_FAILURE" &&
          failure &&
          "retryAfterSeconds" in failure &&
          failure.retryAfterSeconds !== undefined && { retryAfterSeconds: failure.retryAfterSeconds }),
      });
    }
  }
  if (failure && "code" in failure) throw new RpcFailure(failure.code, failure.message);
  const answer = { timestamp, results };
  // A group without other members counts as sent; otherwise signal-cli fails when no one got it.
  if (!succeeded && results.length > 0) {
    const types = new Set(results.map((r) => r.type));
    if (types.size === 1 && types.has("IDENTITY_FAILURE")) {
      throw new RpcFailure(-4, "Failed to send message due to untrusted identities", { response: answer });
    }
    if (types.size === 1 && types.has("RATE_LIMIT_FAILURE")) {
      throw new RpcFailure(-5, "Failed to send message due to rate limiting", { response: answer });
    }
    throw new RpcFailure(USER_ERROR, "Failed to send message", { response: answer });
  }
  for (const target of targets) effect(target.to, timestamp);
  return answer;
}

function personOf(world: RpcWorld, recipient: string): FakePerson {
  const person = world.state.person(recipient);
  if (!person) throw new RpcFailure(USER_ERROR, `Invalid recipient: ${recipient}`);
  return person;
}

function parseRange(value: string, what: string, last: string): { start: number; length: number; what: string } {
  const match = /^(\d+):(\d+):(.+)$/.exec(value);
  if (!match) throw new RpcFailure(USER_ERROR, `Invalid ${what} syntax (${value}) expected 'start:length:${last}'`);
  return { start: Number(match[1]), length: Number(match[2]), what: match[3] as string };
}
