import { truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { platformMedium } from "@chorus/channel-telegram/testing";
import { eventually, faults, SAMPLE_PDF_TEXT, sampleMedium, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatRequest, lastUserText } from "../../src/testing/index.js";
import { type FileServer, sameBytes, solidPng, startFileServer } from "../support/media-files.js";
import { ANN, BOB, GROUP, startTelegramMediaWorld, type TelegramMediaWorld } from "../support/telegram-media-world.js";

const MB = 1024 * 1024;
const voice = sampleMedium("voice");
const pdf = sampleMedium("file");
const chart = solidPng([10, 20, 30]);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** The tool results the model got back in a request, parsed. */
function toolResults(request: FakeChatRequest | undefined): { ok: boolean; [key: string]: unknown }[] {
  return (request?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => JSON.parse(String(m.content)) as { ok: boolean });
}

/**
 * Media on Telegram both ways (DESIGN §2.6), through the real `chorus start` with the Telegram
 * plugin against its fake Bot API: the bytes the model and the transcription endpoint got are the
 * bytes the person sent, and the bytes the fake holds are the ones the agent sent.
 */
describe("Telegram media in and out, through the real gateway process", () => {
  let world: TelegramMediaWorld;
  let files: FileServer;
  beforeAll(async () => {
    // A web server on loopback, reachable for `url` items only because media.allowHosts lists it.
    files = await startFileServer({ "/chart.png": { bytes: chart, type: "image/png" } });
    world = await startTelegramMediaWorld({ allowHosts: [files.hostPort] });
  }, 30_000);
  afterAll(async () => {
    await world?.close();
    await files?.close();
  });

  /** Waits for the bot to say `text` in a chat. */
  const botSays = (chatId: number, text: string) =>
    eventually(() => expect(world.botMessages(chatId).map((m) => m.text)).toContain(text), { timeoutMs: 15_000 });

  it("a DM photo with a caption reaches the model as an image part plus the caption", async () => {
    const photo = solidPng([200, 30, 30]);
    const before = world.model.requests.length;
    world.model.script({ text: "A red square." });
    world.telegram.userSendsMedium({
      chatId: ANN.id,
      from: ANN,
      sample: { kind: "image", bytes: photo, mime: "image/png", caption: "what is this?" },
    });
    await botSays(ANN.id, "A red square.");
    const request = world.model.requests[before];
    expect(lastUserText(request)).toMatch(/^what is this\?\n\[photo [^\]]*mediaId med_[\w-]+\]$/);
    const images = world.model.images.filter((image) => image.request === before);
    expect(images.map((image) => image.mediaType)).toEqual(["image/png"]);
    expect(sameBytes(images[0]?.bytes, photo)).toBe(true);
  });

  it("a voice note's bytes reach the transcription endpoint and its words the model", async () => {
    const before = world.model.requests.length;
    const uploads = world.speech.uploads.length;
    world.speech.script({ text: "please buy milk" });
    world.model.script({ text: "Milk, noted." });
    world.telegram.userSendsMedium({
      chatId: ANN.id,
      from: ANN,
      sample: { kind: "voice", bytes: voice.bytes, mime: voice.mime },
      duration: 2,
    });
    await botSays(ANN.id, "Milk, noted.");
    expect(world.speech.uploads.slice(uploads).map((upload) => Buffer.from(upload.bytes))).toEqual([
      Buffer.from(voice.bytes),
    ]);
    expect(lastUserText(world.model.requests[before])).toMatch(
      /^\[voice note 0:02, mediaId med_[\w-]+\] please buy milk$/,
    );
  });

  it("in the group, Ann's unmentioned voice note saying 'Chorus, …' wakes the agent; Bob's is never downloaded nor transcribed", async () => {
    const before = world.model.requests.length;
    const uploads = world.speech.uploads.length;
    const served = world.telegram.files.bytesServed;
    world.speech.script({ text: "Chorus, what is for dinner?" });
    world.model.script({ text: "Pasta, Ann." });
    // Bob is not in groupAllowFrom: his voice note is refused before anything is fetched.
    world.telegram.userSendsMedium({ chatId: GROUP, from: BOB, sample: { kind: "voice", bytes: voice.bytes } });
    world.telegram.userSendsMedium({ chatId: GROUP, from: ANN, sample: { kind: "voice", bytes: voice.bytes } });
    await botSays(GROUP, "Pasta, Ann.");
    expect(lastUserText(world.model.requests[before])).toMatch(
      /^Ann: \[voice note 0:01, mediaId med_[\w-]+\] Chorus, what is for dinner\?\n\[from: Ann\]$/,
    );
    expect(world.model.requests).toHaveLength(before + 1);
    // One transcription and one download: Ann's.
    expect(world.speech.uploads.length - uploads).toBe(1);
    expect(world.speech.server.requests.filter((r) => r.path.endsWith("/audio/transcriptions"))).toHaveLength(
      uploads + 1,
    );
    expect(world.telegram.files.bytesServed - served).toBe(voice.bytes.byteLength);
  });

  it("a PDF's text reaches the model", async () => {
    const before = world.model.requests.length;
    world.model.script({ text: "Read it." });
    world.telegram.userSendsMedium({
      chatId: ANN.id,
      from: ANN,
      sample: { kind: "file", bytes: pdf.bytes, mime: pdf.mime, filename: "notes.pdf" },
    });
    await botSays(ANN.id, "Read it.");
    expect(lastUserText(world.model.requests[before])).toMatch(
      new RegExp(`^\\[file notes\\.pdf, application/pdf, \\d+ bytes, mediaId med_[\\w-]+\\]\\n${SAMPLE_PDF_TEXT}$`),
    );
  });

  it("three photos sent together (an album) are one turn with three image parts, in order", async () => {
    const photos = [solidPng([255, 0, 0]), solidPng([0, 255, 0]), solidPng([0, 0, 255])];
    const before = world.model.requests.length;
    world.model.script({ text: "Three colours." });
    world.telegram.userSendsAlbum({
      chatId: ANN.id,
      from: ANN,
      samples: photos.map((bytes) => ({ kind: "image" as const, bytes, mime: "image/png" })),
    });
    await botSays(ANN.id, "Three colours.");
    expect(world.model.requests).toHaveLength(before + 1);
    const images = world.model.images.filter((image) => image.request === before);
    expect(images.map((image) => image.mediaType)).toEqual(["image/png", "image/png", "image/png"]);
    expect(images.map((image, i) => sameBytes(image.bytes, photos[i] as Uint8Array))).toEqual([true, true, true]);
    expect(lastUserText(world.model.requests[before]).match(/\[photo /g)).toHaveLength(3);
  });

  it("the agent sends an image by URL, a file by path, an album, a voice note and a location: the fake holds exactly those", async () => {
    const album = [solidPng([250, 250, 0]), solidPng([0, 250, 250])];
    await writeFile(join(world.home, "media", "outbox", "report.pdf"), pdf.bytes);
    const before = world.model.requests.length;
    const sent = world.botMessages(ANN.id).length;
    const send = (args: Record<string, unknown>) => ({ name: "message", arguments: { action: "send", ...args } });
    world.model.script(
      {
        toolCalls: [
          send({ text: "The chart", media: [{ url: `${files.url}/chart.png` }] }),
          send({ media: [{ path: "report.pdf" }] }),
          send({ media: album.map((bytes, i) => ({ data: base64(bytes), filename: `p${i}.png` })) }),
          send({ media: [{ data: base64(voice.bytes), as: "voice" }] }),
          send({ location: { latitude: 48.8584, longitude: 2.2945, name: "Tour Eiffel", address: "Champ de Mars" } }),
        ],
      },
      { text: "All sent." },
    );
    world.telegram.userSends({ chatId: ANN.id, from: ANN, text: "send me everything" });
    await botSays(ANN.id, "All sent.");

    expect(toolResults(world.model.requests[before + 1]).map((result) => [result.ok, result.sentAs])).toEqual([
      [true, ["image"]],
      [true, ["file"]],
      [true, ["image", "image"]],
      [true, ["voice"]],
      [true, ["location"]],
    ]);
    const messages = world.botMessages(ANN.id).slice(sent);
    const shown = messages.map((message) => {
      const medium = platformMedium(world.telegram.files, message);
      const place = message.location;
      return medium
        ? [medium.kind, Buffer.from(medium.bytes), medium.caption ?? null]
        : place
          ? ["location", place.latitude, place.longitude, message.venue?.title]
          : ["text", message.text];
    });
    expect(shown).toEqual([
      ["image", Buffer.from(chart), "The chart"],
      ["file", Buffer.from(pdf.bytes), null],
      ["image", Buffer.from(album[0] as Uint8Array), null],
      ["image", Buffer.from(album[1] as Uint8Array), null],
      ["voice", Buffer.from(voice.bytes), null],
      ["location", 48.8584, 2.2945, "Tour Eiffel"],
      ["text", "All sent."],
    ]);
    // The two pictures are one album; the document kept its name; the URL was fetched once.
    expect(messages[2]?.media_group_id).toBeDefined();
    expect(messages[3]?.media_group_id).toBe(messages[2]?.media_group_id);
    expect(messages[1]?.document?.file_name).toBe("report.pdf");
    expect(files.hits).toEqual(["/chart.png"]);
  });

  it("a file over Telegram's 50 MB is E_TOO_LARGE in the tool result, and nothing reaches Telegram", async () => {
    // A sparse 51 MB file: its size is known before a byte is read.
    const huge = join(world.home, "media", "outbox", "backup.bin");
    await writeFile(huge, "");
    await truncate(huge, 51 * MB);
    const before = world.model.requests.length;
    const calls = world.telegram.server.requests.length;
    world.model.script(
      { toolCalls: [{ name: "message", arguments: { action: "send", media: [{ path: "backup.bin" }] } }] },
      { text: "Too big for Telegram." },
    );
    world.telegram.userSends({ chatId: ANN.id, from: ANN, text: "send me the backup" });
    await botSays(ANN.id, "Too big for Telegram.");
    const [result] = toolResults(world.model.requests[before + 1]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "E_TOO_LARGE", message: "media.0 is 51 MB; Telegram takes media up to 50 MB." },
    });
    const sends = world.telegram.server.requests
      .slice(calls)
      .map((r) => r.path.split("/").at(-1))
      .filter((method) => method?.startsWith("send") && method !== "sendChatAction");
    expect(sends).toEqual(["sendMessage"]); // the reply; no upload was tried
  });

  it("a send cut off by SIGKILL after its outbox commit goes out after the restart: the same bytes, once", async () => {
    const photo = solidPng([123, 45, 67]);
    const sendPhotos = () => world.telegram.server.requestsTo("POST", /\/sendPhoto$/);
    const before = sendPhotos().length;
    const sent = world.botMessages(ANN.id).length;
    // Telegram takes the upload and never answers: the gateway is killed with the send in flight.
    world.telegram.server.inject(faults.hang({ method: "POST", path: /\/sendPhoto$/ }));
    void world.gateway
      .call("POST", "/v1/tools/message", {
        channel: "telegram",
        target: String(ANN.id),
        action: "send",
        media: [{ data: base64(photo), caption: "survives a crash" }],
      })
      .catch(() => undefined);
    await waitFor(() => sendPhotos().length > before, { timeoutMs: 10_000, message: "the upload reached Telegram" });
    expect(world.botMessages(ANN.id)).toHaveLength(sent);
    await world.gateway.stop("SIGKILL");

    await world.start();
    await eventually(() => expect(world.botMessages(ANN.id).length).toBeGreaterThan(sent), { timeoutMs: 20_000 });
    const resent = world.botMessages(ANN.id).slice(sent);
    expect(resent).toHaveLength(1);
    const medium = platformMedium(world.telegram.files, resent[0] as (typeof resent)[number]);
    expect(medium?.kind).toBe("image");
    expect(medium?.caption).toBe("survives a crash");
    expect(sameBytes(medium?.bytes, photo)).toBe(true);
    expect(sendPhotos()).toHaveLength(before + 2); // the one cut off, and the one after the restart
  });
});
