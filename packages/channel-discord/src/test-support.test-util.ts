import type { InboundMediumSample, PlatformMessageMedia } from "@chorus/testkit";
import {
  createFakeDiscord,
  type FakeDiscord,
  type FakeDiscordOptions,
  type FakeMessage,
  IS_VOICE_MESSAGE,
} from "./testing/index.js";

/** People of the test guild. */
export const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };
export const BOB = { id: "700000000000000002", username: "bob", global_name: "Bob" };

/** Short timeouts, no REST retries: a test that meets a fault ends quickly. */
export const FAST = {
  retries: 0,
  timeoutMs: 1_000,
  maxRetryAfterMs: 1_000,
  readyTimeoutMs: 3_000,
  reconnectMinMs: 50,
  reconnectMaxMs: 400,
};

/** A started fake Discord with guild 100 (#general = 200) where Ann and Bob are members. */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const fake = createFakeDiscord(options);
  await fake.start();
  fake.addGuild({ id: "100", name: "Team", channels: [{ id: "200", name: "general" }] });
  fake.addMember("100", ANN);
  fake.addMember("100", BOB);
  return fake;
}

/**
 * A message's media as Discord shows them, in core's words: a voice message's audio is `voice`,
 * other files are what their `content_type` says (image, video, audio), anything else a file; the
 * message content is the caption of its first file.
 */
export function shownMedia(message: FakeMessage): PlatformMessageMedia {
  const voice = (message.flags & IS_VOICE_MESSAGE) !== 0;
  const kindOf = (type = "") => {
    if (voice && type.startsWith("audio/")) return "voice" as const;
    const top = type.split("/")[0];
    return top === "image" || top === "video" || top === "audio" ? top : ("file" as const);
  };
  return {
    media: message.attachments.map((a, i) => ({
      kind: kindOf(a.content_type),
      bytes: a.bytes,
      filename: a.filename,
      ...(i === 0 && message.content !== "" ? { caption: message.content } : {}),
    })),
    ...(message.content !== "" ? { text: message.content } : {}),
  };
}

/** Ann sends `sample` in #general as Discord delivers it: files, a voice message, or a guild sticker. */
export function annSends(fake: FakeDiscord, sample: InboundMediumSample): FakeMessage {
  const { bytes, kind } = sample;
  if (bytes === undefined) throw new Error(`Discord has no ${kind} messages (only files, voice messages and stickers)`);
  const author = ANN;
  if (kind === "voice") {
    return fake.userSendsVoice({
      channelId: "200",
      author,
      bytes,
      durationSecs: 0.5,
      ...(sample.mime ? { contentType: sample.mime } : {}),
    });
  }
  if (kind === "sticker") {
    const id = fake.state.snowflake();
    fake.addSticker({ id, name: "wave", format_type: 1, bytes });
    return fake.userSendsMedia({ channelId: "200", author, stickerIds: [id] });
  }
  const file = {
    bytes,
    filename: sample.filename ?? `${kind}.bin`,
    ...(sample.mime ? { contentType: sample.mime } : {}),
  };
  return fake.userSendsMedia({ channelId: "200", author, content: sample.caption ?? "", files: [file] });
}
