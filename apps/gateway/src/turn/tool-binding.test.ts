import type { ChannelCapabilities } from "@chorus/core";
import { describe, expect, it } from "vitest";
import type { ChannelEntry } from "../channels/index.js";
import { MessageToolDefinitions } from "./tool-binding.js";

const talk: ChannelCapabilities = {
  chatTypes: ["group"],
  reactions: { clearAll: false, singleSlot: false, tapbackOnly: false, addOnly: true, list: false },
  typing: false,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: 32_000,
  media: {
    send: [],
    receive: ["file"],
    maxSendBytes: 0,
    maxReceiveBytes: 1024,
    caption: false,
    perMessage: 1,
    linkOnly: true,
  },
};
/** The part of a channel entry the definitions read. */
const entry = {
  plugin: { label: "Nextcloud Talk", capabilities: talk },
  capabilities: talk,
} as unknown as ChannelEntry;
const parameters = (definitions: MessageToolDefinitions) =>
  Object.keys((definitions.for(entry, "minimal").jsonSchema as { properties: object }).properties);

describe("MessageToolDefinitions: media on a channel that sends links only", () => {
  it("offers media where the gateway can link to them (gateway.publicUrl)", () => {
    expect(parameters(new MessageToolDefinitions(true))).toContain("media");
  });

  it("offers no media without links, and refuses a call that passes them, naming the channel", () => {
    const definitions = new MessageToolDefinitions(false);
    expect(parameters(definitions)).not.toContain("media");
    expect(() => definitions.for(entry, "minimal").parse({ action: "send", media: [{ mediaId: "med_1" }] })).toThrow(
      "Nextcloud Talk cannot send media.",
    );
  });
});
