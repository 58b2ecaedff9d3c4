import { describe, expect, it } from "vitest";
import { ChorusError } from "../errors.js";
import type { MediaCapabilities } from "../media/capabilities.js";
import type { ChannelCapabilities } from "../plugin/plugin.js";
import { MAX_INLINE_MEDIA_BYTES } from "./media-input.js";
import { buildMessageTool } from "./schema.js";

const MB = 1024 * 1024;

const channel = (media?: MediaCapabilities): ChannelCapabilities => ({
  chatTypes: ["direct", "group"],
  reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: true },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: 4096,
  ...(media ? { media } : {}),
});

const telegram = channel({
  send: ["image", "video", "audio", "voice", "file", "sticker", "location"],
  receive: ["image", "voice"],
  maxSendBytes: 50 * MB,
  maxReceiveBytes: 20 * MB,
  caption: true,
  perMessage: 10,
});
const textOnly = channel();
const linkOnly = channel({
  send: [],
  receive: [],
  maxSendBytes: 0,
  maxReceiveBytes: 0,
  caption: false,
  perMessage: 1,
  linkOnly: true,
});

type Properties = Record<
  string,
  { type?: string; description?: string; items?: { properties?: Record<string, unknown> } }
>;
const propertiesOf = (capabilities: ChannelCapabilities) =>
  (buildMessageTool({ capabilities }).jsonSchema as { properties: Properties }).properties;

function errorOf(run: () => unknown): ChorusError {
  try {
    run();
  } catch (error) {
    if (error instanceof ChorusError) return error;
    throw error;
  }
  throw new Error("expected a ChorusError");
}

describe("the message tool's media parameters come from capabilities.media (DESIGN §2.5, §2.6)", () => {
  it("offers media where the channel sends some, with every source, as, filename and caption", () => {
    const media = propertiesOf(telegram).media;
    expect(media?.type).toBe("array");
    expect(Object.keys(media?.items?.properties ?? {})).toEqual([
      "url",
      "path",
      "mediaId",
      "data",
      "as",
      "filename",
      "caption",
    ]);
  });

  it("has no media where the channel sends none, and refuses a call that passes it anyway", () => {
    expect(propertiesOf(textOnly).media).toBeUndefined();
    const error = errorOf(() =>
      buildMessageTool({ capabilities: textOnly, channel: "Acme" }).parse({
        action: "send",
        media: [{ url: "https://x.example/a.png" }],
      }),
    );
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.message).toBe("Acme cannot send media.");
  });

  it("offers media on a link-only channel (they go out as links) and says so", () => {
    expect(propertiesOf(linkOnly).media).toBeDefined();
    expect(buildMessageTool({ capabilities: linkOnly }).description).toContain("Media go out as links here");
  });

  it("offers location everywhere: a pin where the channel has one, else text", () => {
    expect(propertiesOf(textOnly).location?.type).toBe("object");
    expect(buildMessageTool({ capabilities: telegram }).description).toContain("location sends a map pin.");
    const noPins = channel({
      send: ["image"],
      receive: [],
      maxSendBytes: MB,
      maxReceiveBytes: 0,
      caption: true,
      perMessage: 1,
    });
    expect(buildMessageTool({ capabilities: noPins }).description).toContain("location is sent as text");
    expect(buildMessageTool({ capabilities: textOnly }).description).not.toContain("location");
  });

  it("says what the channel sends, the limits and how many items a message holds", () => {
    const description = buildMessageTool({ capabilities: telegram, channel: "Telegram" }).description;
    expect(description).toContain("image up to 50 MB");
    expect(description).toContain("voice up to 50 MB");
    expect(description).toContain("Up to 10 items per message");
    expect(description).toContain("text becomes the caption of the first item.");
  });
});

describe("parse: media and location calls", () => {
  const tool = buildMessageTool({ capabilities: telegram, channel: "Telegram" });

  it("accepts media without text, a location without text, and text with both", () => {
    expect(tool.parse({ action: "send", media: [{ mediaId: "med_1" }] }).media).toEqual([{ mediaId: "med_1" }]);
    expect(tool.parse({ action: "send", location: { latitude: 1, longitude: 2 } }).location).toEqual({
      latitude: 1,
      longitude: 2,
    });
    const both = tool.parse({
      action: "send",
      text: "hi",
      media: [{ url: "https://x.example/a.png", as: "sticker", filename: "a.png", caption: "c" }],
      location: { latitude: 1, longitude: 2, name: "Here" },
    });
    expect(both.media?.[0]?.as).toBe("sticker");
  });

  it.each([
    [{}, "media.0: give one of url, path, mediaId or data"],
    [
      { url: "https://x.example/a", path: "a.png" },
      "media.0: give only one of url, path, mediaId or data (got url and path)",
    ],
    [{ url: "ftp://x.example/a" }, "media.0.url: must be an http or https URL"],
    [{ path: "a.png", filename: "../etc/passwd" }, "media.0.filename: must be a name, not a path"],
    [{ path: "a.png", as: "location" }, "media.0.as"],
  ])("refuses the item %j naming the parameter", (item, problem) => {
    const error = errorOf(() => tool.parse({ action: "send", media: [item] }));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toContain(problem);
  });

  it("refuses more than ten items, an empty list, a latitude out of range, and media on a react call", () => {
    const eleven = Array.from({ length: 11 }, () => ({ mediaId: "m" }));
    expect(errorOf(() => tool.parse({ action: "send", media: eleven })).message).toContain("media:");
    expect(errorOf(() => tool.parse({ action: "send", media: [] })).message).toContain("media:");
    expect(errorOf(() => tool.parse({ action: "send", location: { latitude: 91, longitude: 0 } })).message).toContain(
      "location.latitude",
    );
    expect(errorOf(() => tool.parse({ action: "react", emoji: "👍", media: [{ mediaId: "m" }] })).message).toContain(
      "media: media is only for action send",
    );
  });

  it("data over 512 KiB decoded is E_TOO_LARGE pointing to POST /v1/media; not base64 is E_INVALID_INPUT", () => {
    const big = Buffer.alloc(MAX_INLINE_MEDIA_BYTES + 1).toString("base64");
    const error = errorOf(() => tool.parse({ action: "send", media: [{ data: big }] }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe("media.0.data holds 512 KB; inline data is limited to 512 KB.");
    expect(error.hint).toContain("POST /v1/media");
    const fits = Buffer.alloc(MAX_INLINE_MEDIA_BYTES).toString("base64");
    expect(tool.parse({ action: "send", media: [{ data: fits }] }).media).toHaveLength(1);
    const notBase64 = errorOf(() => tool.parse({ action: "send", media: [{ data: "not base64!" }] }));
    expect(notBase64.code).toBe("E_INVALID_INPUT");
    expect(notBase64.message).toBe("media.0.data is not base64.");
  });
});
