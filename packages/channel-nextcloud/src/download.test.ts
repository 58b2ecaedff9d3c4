import { collectBytes } from "@chorus/channel-kit";
import { type Attachment, type ChorusError, isChorusError } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextcloudChannel } from "./index.js";
import { filesUser } from "./media-harness.test-util.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";

const APP_PASSWORD = "app-password-of-chorus-bot-7f3a";
const ann = { id: "ann", name: "Ann" };
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
  fake.addRoom({ token: "team", name: "Team" });
  fake.setupBot(bot, "team");
  fake.addAccount({ id: filesUser.id, appPassword: APP_PASSWORD });
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

/** Ann shares `bytes` as `name`; resolves with the attachment the plugin made of the hook. */
async function shared(name: string, bytes: Uint8Array, files = true): Promise<Attachment> {
  running = await startChannel(nextcloudChannel, {
    config: fake.config(bot, files ? { files: { user: filesUser.id, appPassword: APP_PASSWORD } } : {}),
  });
  const hook = fake.userSharesFile({ token: "team", user: ann, name, bytes });
  await fake.deliver(running.ctx.http.url("/default"), bot, hook);
  const event = await running.waitForEvent((e) => e.type === "message");
  const [attachment] = event.type === "message" ? (event.attachments ?? []) : [];
  if (!attachment) throw new Error("no attachment");
  return attachment;
}

async function refusal(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isChorusError(error)) throw new Error(`expected a ChorusError, got ${String(error)}`);
  return error;
}

describe("download", () => {
  it("finds the shared file in the files user's Talk folder by id (SEARCH) and streams its bytes", async () => {
    fake.addParticipant("team", filesUser.id);
    const pdf = sampleMedium("file").bytes;
    const attachment = await shared("notes.pdf", pdf);
    const medium = await (running as RunningChannel).instance.download?.(attachment, { maxBytes: 1024 * 1024 });
    expect(medium?.mime).toBe("application/pdf");
    expect(medium?.size).toBe(pdf.byteLength);
    expect(await collectBytes(medium?.stream as ReadableStream<Uint8Array>, 1024 * 1024, "t")).toEqual(pdf);
    const [search] = fake.server.requestsTo("SEARCH", "/remote.php/dav/");
    expect(search?.rawBody).toContain("<d:href>/files/chorus-bot</d:href>");
    expect(search?.rawBody).toContain(`<d:literal>${(attachment.source as { fileId: string }).fileId}</d:literal>`);
    // Recipients see a room share in their own Talk folder.
    expect(fake.server.requestsTo("GET", "/remote.php/dav/files/chorus-bot/*").map((r) => r.path)).toEqual([
      "/remote.php/dav/files/chorus-bot/Talk/notes.pdf",
    ]);
  });

  it("a size Talk states over the cap is E_TOO_LARGE before any request", async () => {
    fake.addParticipant("team", filesUser.id);
    const attachment = await shared("big.pdf", new Uint8Array(4096));
    fake.server.clearRequests();
    const error = await refusal(
      (running as RunningChannel).instance.download?.(attachment, { maxBytes: 1024 }) as Promise<unknown>,
    );
    expect(error.code).toBe("E_TOO_LARGE");
    expect(fake.server.requests).toEqual([]);
  });

  it("a file the files user cannot see (not in the conversation) is E_MESSAGE_NOT_FOUND saying what to do", async () => {
    const attachment = await shared("notes.pdf", sampleMedium("file").bytes);
    const error = await refusal(
      (running as RunningChannel).instance.download?.(attachment, { maxBytes: 1024 * 1024 }) as Promise<unknown>,
    );
    expect(error.code).toBe("E_MESSAGE_NOT_FOUND");
    expect(error.hint).toContain("Add the files user");
  });

  it("without files: E_UNSUPPORTED saying how to get file access, and where the file is; no request", async () => {
    const attachment = await shared("notes.pdf", sampleMedium("file").bytes, false);
    fake.server.clearRequests();
    const error = await refusal(
      (running as RunningChannel).instance.download?.(attachment, { maxBytes: 1024 * 1024 }) as Promise<unknown>,
    );
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.message).toContain(`${fake.url}/index.php/f/`);
    expect(error.hint).toContain("channels.nextcloud.files");
    expect(fake.server.requests).toEqual([]);
  });

  it("an attachment without a Nextcloud file is E_INVALID_INPUT", async () => {
    running = await startChannel(nextcloudChannel, { config: fake.config(bot) });
    const error = await refusal(
      running.instance.download?.({ kind: "image", source: { url: "x" } }, { maxBytes: 10 }) as Promise<unknown>,
    );
    expect(error.code).toBe("E_INVALID_INPUT");
  });
});
