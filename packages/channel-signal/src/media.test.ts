import { collectBytes, streamOf } from "@chorus/channel-kit";
import type { Attachment, InboundMessageEvent, OutboundMedium } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { SIGNAL_MAX_UPLOAD } from "./media.js";
import { type FakeGroup, type FakePerson, FakeSignal, shownKind } from "./testing/index.js";

let fake: FakeSignal;
let running: RunningChannel;
let ann: FakePerson;
let team: FakeGroup;

async function startWith(
  options: ConstructorParameters<typeof FakeSignal>[0] = {},
  extra: Record<string, unknown> = {},
) {
  fake = new FakeSignal({ keepAliveMs: 0, ...options });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
  team = fake.state.addGroup({ name: "Team", members: [ann] });
  running = await startChannel(signalChannel, { config: fake.config({ timeoutMs: 2_000, retries: 0, ...extra }) });
}

beforeEach(() => startWith());

afterEach(async () => {
  await running?.stop();
  await fake?.close();
});

/** A medium to send, from testkit's real samples. */
function medium(kind: OutboundMedium["kind"], extra: Partial<OutboundMedium> = {}): OutboundMedium {
  const sample = sampleMedium(kind === "voice" ? "voice" : kind);
  return {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: sample.bytes.byteLength,
    open: () => streamOf(sample.bytes.slice()),
    ...extra,
  };
}

const messageWith = (match: (e: InboundMessageEvent) => boolean) =>
  running.waitForEvent((e): e is InboundMessageEvent => e.type === "message" && match(e));

describe("send with media: signal-cli's send with attachments as data: URIs", () => {
  it("a photo and a PDF in one message, the text as their caption, byte for byte with their names", async () => {
    const ref = await running.instance.send(
      { id: team.id },
      { text: "", media: [medium("image", { caption: "**This** week" }), medium("file")] },
    );
    const [sent] = fake.sentTo(team.id);
    expect(ref.messageId).toBe(String(sent?.timestamp));
    expect(sent?.text).toBe("This week");
    expect(sent?.textStyles).toEqual(["0:4:BOLD"]);
    expect(sent?.attachments?.map((f) => [shownKind(f), f.filename, f.contentType])).toEqual([
      ["image", "image.png", "image/png"],
      ["file", "file.pdf", "application/pdf"],
    ]);
    expect(sent?.attachments?.[0]?.bytes).toEqual(sampleMedium("image").bytes);
    expect(sent?.attachments?.[1]?.bytes).toEqual(sampleMedium("file").bytes);
    // One request: the data: URIs in `attachments`, as signal-cli documents them.
    const [params] = fake.calls("send");
    expect(params?.attachments).toEqual([
      `data:image/png;filename=image.png;base64,${Buffer.from(sampleMedium("image").bytes).toString("base64")}`,
      `data:application/pdf;filename=file.pdf;base64,${Buffer.from(sampleMedium("file").bytes).toString("base64")}`,
    ]);
    expect(params).not.toHaveProperty("voiceNote");
  });

  it("a voice note goes alone with voiceNote: true; the reply quotes on the first send only", async () => {
    const trigger = fake.people.sends({ from: ann, text: "say something" });
    const event = await messageWith((e) => e.text === "say something");
    await running.instance.send(
      { id: ann.uuid },
      { text: "", media: [medium("image"), medium("voice"), medium("audio")], replyTo: event.ref },
    );
    const sends = fake.calls("send");
    expect(
      sends.map((p) => [p.attachments && (p.attachments as string[]).length, p.voiceNote, p.quoteTimestamp]),
    ).toEqual([
      [1, undefined, trigger.timestamp],
      [1, true, undefined],
      [1, undefined, undefined],
    ]);
    expect(
      fake
        .sentTo(ann.uuid)
        .flatMap((m) => m.attachments ?? [])
        .map(shownKind),
    ).toEqual(["image", "voice", "audio"]);
  });

  it("a file name with ; , = and spaces keeps its name; a type with parameters keeps its type", async () => {
    await running.instance.send(
      { id: team.id },
      {
        text: "",
        media: [medium("voice", { kind: "audio", filename: "a;b,c=d e+f ü.ogg", mime: "audio/ogg; codecs=opus" })],
      },
    );
    const [file] = fake.sentTo(team.id)[0]?.attachments ?? [];
    expect([file?.filename, file?.contentType]).toEqual(["a;b,c=d e+f ü.ogg", "audio/ogg"]);
  });

  it("more than 32 media become several sends; a caption over 2,000 characters goes first as text", async () => {
    const many = Array.from({ length: 33 }, () => medium("image"));
    const caption = `${"word ".repeat(450)}\n\n${"tail ".repeat(10)}`.trim();
    await running.instance.send({ id: team.id }, { text: caption, media: many });
    const sent = fake.sentTo(team.id);
    expect(sent.map((m) => [m.attachments?.length ?? 0, m.text.length > 0])).toEqual([
      [0, true],
      [32, true],
      [1, false],
    ]);
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(words(`${sent[0]?.text} ${sent[1]?.text}`)).toEqual(words(caption));
    expect(sent[0]?.text.length).toBeLessThanOrEqual(2_000);
  });

  it("refuses a medium over 14 MB, or an empty one, before anything is sent or read", async () => {
    let opened = false;
    const huge = medium("file", {
      size: SIGNAL_MAX_UPLOAD + 1,
      open: () => {
        opened = true;
        return streamOf(new Uint8Array());
      },
    });
    await expect(
      running.instance.send({ id: team.id }, { text: "two", media: [medium("image"), huge] }),
    ).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: '"file.pdf" is over 14 MB.',
      hint: expect.stringContaining("20,000,000 characters"),
    });
    await expect(
      running.instance.send(
        { id: team.id },
        { text: "", media: [medium("file", { size: 0, open: () => streamOf(new Uint8Array()) })] },
      ),
    ).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
    expect([opened, fake.calls("send").length]).toEqual([false, 0]);
  });

  it("a medium that gives fewer bytes than its size fails the request: nothing is sent", async () => {
    const short = medium("file", { size: sampleMedium("file").bytes.byteLength + 10 });
    await expect(running.instance.send({ id: team.id }, { text: "", media: [short] })).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
      message: expect.stringContaining("fewer bytes than its size"),
    });
    expect(fake.sentTo(team.id)).toEqual([]);
  });

  it("a daemon that refuses a string over its JSON limit: a typed error, nothing sent, no data: URI in the message", async () => {
    await running.stop();
    await fake.close();
    await startWith({ maxJsonString: 1_000 });
    const bytes = new Uint8Array(1_000).fill(65);
    const file = medium("file", { size: bytes.byteLength, open: () => streamOf(bytes) });
    const error = await running.instance.send({ id: team.id }, { text: "", media: [file] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", message: "signal-cli: An internal server error has occurred." });
    expect(fake.sentTo(team.id)).toEqual([]);
  });
});

describe("download: getAttachment and getSticker over the daemon's HTTP API, streamed", () => {
  const received = async (send: () => void): Promise<Attachment> => {
    send();
    const event = await messageWith((e) => (e.attachments?.length ?? 0) > 0);
    return event.attachments?.[0] as Attachment;
  };
  const read = async (attachment: Attachment, maxBytes = 10_000_000) => {
    const medium = await (running.instance.download as NonNullable<typeof running.instance.download>)(attachment, {
      maxBytes,
    });
    return { medium, bytes: await collectBytes(medium.stream, maxBytes * 2, "test") };
  };

  it("someone's file: the attachment says what signal-cli says, download gives its bytes", async () => {
    const pdf = sampleMedium("file");
    const attachment = await received(() =>
      fake.people.sends({
        from: ann,
        group: team,
        text: "the bill",
        files: [{ bytes: pdf.bytes, contentType: pdf.mime, filename: "bill.pdf" }],
      }),
    );
    expect(attachment).toMatchObject({
      kind: "file",
      mime: "application/pdf",
      size: pdf.bytes.byteLength,
      filename: "bill.pdf",
    });
    const { medium, bytes } = await read(attachment);
    expect(bytes).toEqual(pdf.bytes);
    expect(medium.mime).toBe("application/pdf");
    const [params] = fake.calls("getAttachment");
    expect(params).toEqual({ account: fake.account, id: (attachment.source as { id: string }).id, groupId: team.id });
  });

  it("a voice note is `voice` from a daemon that flags it, `audio` from 0.14.6; its bytes either way", async () => {
    const voice = sampleMedium("voice");
    const file = { bytes: voice.bytes, contentType: "audio/aac", voiceNote: true };
    const old = await received(() => fake.people.sends({ from: ann, text: null, files: [file] }));
    expect(old.kind).toBe("audio");
    await running.stop();
    await fake.close();
    await startWith({ voiceNoteFlag: true });
    const flagged = await received(() => fake.people.sends({ from: ann, text: null, files: [file] }));
    expect(flagged).toMatchObject({ kind: "voice", mime: "audio/aac" });
    expect((await read(flagged)).bytes).toEqual(voice.bytes);
  });

  it("a sticker whose pack the daemon has not fetched yet: the first getSticker fetches it, the second gives it", async () => {
    const webp = sampleMedium("sticker");
    const attachment = await received(() =>
      fake.people.sendsSticker({ from: ann, group: team, bytes: webp.bytes, fetched: false }),
    );
    expect(attachment.kind).toBe("sticker");
    expect((await read(attachment)).bytes).toEqual(webp.bytes);
    expect(fake.calls("getSticker")).toHaveLength(2);
  });

  it("a file the daemon no longer has is E_MESSAGE_NOT_FOUND with a hint", async () => {
    const pdf = sampleMedium("file");
    const attachment = await received(() =>
      fake.people.sends({ from: ann, text: null, files: [{ bytes: pdf.bytes, contentType: pdf.mime }] }),
    );
    fake.state.media.files.clear();
    await expect(read(attachment)).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      hint: expect.stringContaining("--ignore-attachments"),
    });
  });

  it("over the cap: a stated size fails before asking; an unstated one fails on the answer's length, before reading", async () => {
    const big = new Uint8Array(200_000).fill(3);
    const attachment = await received(() =>
      fake.people.sends({ from: ann, text: null, files: [{ bytes: big, contentType: "application/octet-stream" }] }),
    );
    await expect(read(attachment, 50_000)).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: expect.stringContaining("195 KB"),
    });
    expect(fake.calls("getAttachment")).toEqual([]);
    const { size: _size, ...unsized } = attachment;
    // The answer's length (base64 of 195 KB) is over the cap: refused without reading the body.
    await expect(read(unsized, 50_000)).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: expect.stringContaining("over 49 KB"),
    });
    expect(fake.calls("getAttachment")).toHaveLength(1);
  });

  it("an attachment without a file to fetch is E_INVALID_INPUT naming its kind", async () => {
    await expect(read({ kind: "image" })).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
      message: "This image attachment has no Signal file to download",
    });
  });
});
