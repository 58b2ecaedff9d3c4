import type { InboundMessageEvent } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import * as files from "./fixtures/talk-file-hooks.js";
import * as hooks from "./fixtures/talk-hooks.js";
import { type HookHarness, startHookHarness } from "./hook-harness.test-util.js";

// Shared files and locations, posted verbatim as Talk sends them (fixtures/SOURCES.md).
let harness: HookHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const FILES = { user: "chorus-bot", appPassword: "app-password-of-chorus-bot" };

/** Delivers `body` to a fresh instance; resolves with the message events it emitted. */
async function received(body: string, extra: Record<string, unknown> = {}): Promise<InboundMessageEvent[]> {
  harness = await startHookHarness(extra);
  expect(await harness.deliver(body)).toBe(200);
  return harness.running.events.filter((e): e is InboundMessageEvent => e.type === "message");
}

describe("shared files become attachments", () => {
  it("a file with a caption (Talk 23): the caption is the text, the file an attachment with Talk's facts", async () => {
    const [event] = await received(files.fileWithCaption);
    expect(event).toMatchObject({
      eventId: "create:n3xtc10ud:1580",
      text: "Here is the Q1 report, @Chorus",
      mentions: { bot: true, others: [] },
      attachments: [
        {
          kind: "file",
          mime: "application/pdf",
          size: 48213,
          filename: "Q1 report.pdf",
          source: { fileId: "44", name: "Q1 report.pdf", link: "https://cloud.example.com/index.php/f/44" },
        },
      ],
    });
  });

  it("a photo alone is an image attachment with its dimensions (strings in the hook) and no text", async () => {
    const [event] = await received(files.photoTalk23);
    expect(event?.text).toBe("");
    expect(event?.attachments).toEqual([
      {
        kind: "image",
        mime: "image/jpeg",
        size: 183402,
        filename: "Sommerfest 2025.jpg",
        width: 1600,
        height: 1200,
        source: { fileId: "45", name: "Sommerfest 2025.jpg", link: "https://cloud.example.com/index.php/f/45" },
      },
    ]);
  });

  it("a voice message is an audio attachment: the hook does not carry Talk's voice-message type", async () => {
    const [event] = await received(files.voiceRecording);
    expect(event?.attachments).toMatchObject([{ kind: "audio", mime: "audio/wav", size: 96044 }]);
  });

  it("a share posted as a system message (Activity, object.name file_shared) is a message too", async () => {
    const [event] = await received(files.fileActivity);
    expect(event).toMatchObject({
      eventId: "create:n3xtc10ud:1583",
      sender: { id: "users/ada-lovelace", name: "Ada Lovelace" },
      text: "",
      attachments: [{ kind: "file", mime: "text/plain", size: 212, filename: "minutes.txt" }],
    });
  });

  it("a system message without a file stays ignored", async () => {
    expect(await received(hooks.systemMessage)).toEqual([]);
  });

  it("a shared location is a location attachment (coordinates from the rich object)", async () => {
    const [event] = await received(files.location);
    expect(event?.text).toBe("");
    expect(event?.attachments).toEqual([
      { kind: "location", location: { latitude: 52.5450511, longitude: 13.3741463, name: "Nextcloud Berlin Office" } },
    ]);
  });

  it("a file inside a sentence keeps its name in the text and is an attachment too", async () => {
    const [event] = await received(hooks.groupMention);
    expect(event?.text).toBe("@Chorus ask @Bob Builder about the plan.pdf");
    expect(event?.attachments).toMatchObject([{ kind: "file", filename: "plan.pdf", size: 48213 }]);
  });

  it("a shared folder is no attachment: its name stays the text", async () => {
    const [event] = await received(files.folderShare);
    expect(event?.text).toBe("Reports");
    expect(event?.attachments).toBeUndefined();
  });

  it("what the bot shared as its files user is its own: dropped; from a bot without files it is anyone's", async () => {
    expect(await received(files.ownFileShare, { files: FILES })).toEqual([]);
    await harness?.close();
    const [event] = await received(files.ownFileShare);
    expect(event?.sender.id).toBe("users/chorus-bot");
  });

  it("a reply to a file names the file it quotes", async () => {
    harness = await startHookHarness();
    const { fake } = harness;
    const shared = fake.userSharesFile({
      token: "team",
      user: { id: "ann", name: "Ann" },
      name: "plan.pdf",
      bytes: new Uint8Array([1, 2, 3]),
    });
    const reply = fake.userSends({
      token: "team",
      user: { id: "bob", name: "Bob" },
      message: "looks good",
      replyTo: Number(shared.object.id),
    });
    expect(await harness.deliver(reply)).toBe(200);
    expect(harness.running.events).toMatchObject([
      { text: "looks good", replyTo: { messageId: shared.object.id, text: "[file plan.pdf]", fromBot: false } },
    ]);
  });
});
