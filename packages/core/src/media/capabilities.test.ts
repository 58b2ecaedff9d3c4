import { describe, expect, it } from "vitest";
import { accountCapabilities, type MediaCapabilities, NO_MEDIA } from "./capabilities.js";

const links: MediaCapabilities = { ...NO_MEDIA, receive: ["file"], maxReceiveBytes: 1024, linkOnly: true };
const uploads: MediaCapabilities = {
  send: ["image", "file"],
  receive: ["file"],
  maxSendBytes: 2048,
  maxReceiveBytes: 1024,
  caption: true,
  perMessage: 1,
};
const plugin = (mediaFor?: (config: { files?: boolean }) => MediaCapabilities) => ({
  capabilities: { typing: false, media: links },
  ...(mediaFor ? { mediaFor } : {}),
});

describe("accountCapabilities: an account's media from its config", () => {
  it("is the plugin's capabilities where it has no mediaFor", () => {
    const talk = plugin();
    expect(accountCapabilities(talk, { files: true })).toBe(talk.capabilities);
  });

  it("takes the media mediaFor gives for the account's config, keeping the rest", () => {
    const talk = plugin((config) => (config.files ? uploads : links));
    expect(accountCapabilities(talk, { files: true })).toEqual({ typing: false, media: uploads });
    expect(accountCapabilities(talk, {})).toEqual({ typing: false, media: links });
  });

  it("refuses malformed media, naming the problem", () => {
    const broken = plugin(() => ({ ...uploads, perMessage: 0 }));
    expect(() => accountCapabilities(broken, {})).toThrow(
      "mediaFor answered malformed media: media.perMessage must be a whole number ≥ 1",
    );
  });
});
