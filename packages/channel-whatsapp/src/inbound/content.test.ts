import { proto } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { contextInfoOf, resolveMentionPlaceholders, textOf, unwrapContent } from "./content.js";

const content = (message: object) => unwrapContent(proto.Message.fromObject(message));

describe("textOf", () => {
  it("reads plain and extended text", () => {
    expect(textOf(content({ conversation: "hi" }))).toBe("hi");
    expect(textOf(content({ extendedTextMessage: { text: "hello https://x.example", matchedText: "x" } }))).toBe(
      "hello https://x.example",
    );
  });

  it("notes media, with the caption when there is one", () => {
    expect(textOf(content({ imageMessage: { caption: "sunset" } }))).toBe("[image] sunset");
    expect(textOf(content({ videoMessage: { gifPlayback: true } }))).toBe("[GIF]");
    expect(textOf(content({ stickerMessage: {} }))).toBe("[sticker]");
    expect(textOf(content({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2, name: "Café" } }))).toBe(
      "[location] Café",
    );
    expect(textOf(content({ pollCreationMessageV3: { name: "Pizza?", options: [{ optionName: "yes" }] } }))).toBe(
      "[poll] Pizza?",
    );
    expect(textOf(content({ contactMessage: { displayName: "Ann" } }))).toBe("[contact] Ann");
  });

  it("an edit is no new text: unwrapped, it is a protocol message", () => {
    const edited = content({
      editedMessage: { message: { protocolMessage: { type: 14, editedMessage: { conversation: "fixed" } } } },
    });
    expect(edited?.protocolMessage).toBeTruthy();
    expect(textOf(edited)).toBeUndefined();
  });

  it("nothing for reactions, protocol messages and empty text", () => {
    expect(textOf(content({ reactionMessage: { text: "👍" } }))).toBeUndefined();
    expect(textOf(content({ conversation: "   " }))).toBeUndefined();
    expect(textOf(undefined)).toBeUndefined();
  });
});

describe("contextInfoOf", () => {
  it("finds the context of whatever content type carries it", () => {
    const image = content({ imageMessage: { contextInfo: { mentionedJid: ["1@lid"] } } });
    expect(contextInfoOf(image)?.mentionedJid).toEqual(["1@lid"]);
    expect(contextInfoOf(content({ conversation: "x" }))).toBeUndefined();
  });
});

describe("resolveMentionPlaceholders", () => {
  it("replaces @<number> with the label, never a longer number that starts the same", () => {
    expect(
      resolveMentionPlaceholders("@1555 and @15551 and @1555", [{ user: "1555", label: "Ann" }, { user: "15551" }]),
    ).toBe("@Ann and @15551 and @Ann");
  });

  it("a label with $ signs is inserted literally", () => {
    expect(resolveMentionPlaceholders("@42 hi", [{ user: "42", label: "$& $1" }])).toBe("@$& $1 hi");
  });
});
