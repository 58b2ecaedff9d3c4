import type { OutboundMedium } from "@chorus/core";
import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type CountingProxy, startCountingProxy } from "./counting-proxy.test-util.js";
import { discordChannel } from "./index.js";
import { FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { FakeDiscord } from "./testing/index.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;
const SEND = /\/api\/v10\/channels\/200\/messages$/;
let fake: FakeDiscord;
let proxy: CountingProxy;
let channel: RunningChannel;

/** The plugin talks to the fake's REST through a counting proxy: what reached the fake is known at every read. */
async function start(config: Record<string, unknown> = {}): Promise<void> {
  fake = await startFakeDiscord();
  proxy = await startCountingProxy(fake.url);
  const rest = { ...FAST, timeoutMs: 30_000, apiRoot: `${proxy.url}/api`, ...config };
  channel = await startChannel(discordChannel, { config: fake.config(rest) });
}
afterEach(async () => {
  await channel.stop();
  await proxy.close();
  await fake.close();
});

/** Bytes the medium `seed` yields at `offset`, so every medium and every position differs. */
const byteAt = (seed: number, offset: number) => (offset * 7 + seed * 13 + (offset >> 16)) % 251;

/**
 * A medium of `size` bytes whose `open()` streams are counted and read a chunk at a time; `gate`
 * runs before each chunk is handed out (with the bytes it would bring the read to), `yields` may
 * give a different number of bytes than declared, `failAt` makes the stream fail there.
 */
function medium(
  seed: number,
  size: number,
  options: { gate?: (readAfter: number) => Promise<void>; yields?: number; failAt?: number } = {},
) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => byteAt(seed, i));
  const item = {
    kind: "file" as const,
    mime: "application/octet-stream",
    filename: `part-${seed}.bin`,
    size,
    bytes,
    opens: 0,
    open(): ReadableStream<Uint8Array> {
      item.opens += 1;
      const length = options.yields ?? size;
      let offset = 0;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (offset >= length) return controller.close();
            if (options.failAt !== undefined && offset >= options.failAt) {
              return controller.error(new Error("the media store went away"));
            }
            const end = Math.min(offset + CHUNK, length);
            await options.gate?.(read + end - offset);
            const chunk = Uint8Array.from({ length: end - offset }, (_, i) => byteAt(seed, offset + i));
            read += chunk.byteLength;
            offset = end;
            controller.enqueue(chunk);
          },
        },
        { highWaterMark: 0 },
      );
    },
  };
  return item satisfies OutboundMedium;
}
/** Bytes read from every medium's streams so far. */
let read = 0;

const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(Buffer.from(b));
const botMessages = () => fake.messagesIn("200").filter((m) => m.author.id === fake.bot.id);

describe("Discord uploads streamed from the media", () => {
  it("several media go out while they are read: never more than 1 MiB (+ one chunk) read ahead of what reached the fake", {
    timeout: 60_000,
  }, async () => {
    await start();
    read = 0;
    const before = proxy.received;
    // Each chunk is handed out only once all but 1 MiB of what was read before it is on the wire.
    // An upload that reads a medium whole (or 1 MiB more than the socket takes) waits here for ever: it fails.
    const gate = (readAfter: number) => proxy.reached(before + readAfter - MiB - CHUNK);
    const media = [1, 2, 3].map((seed) => medium(seed, 4 * MiB, { gate }));
    const ref = await channel.instance.send({ id: "200" }, { text: "three parts", media });

    const message = fake.state.messages.get(ref.messageId);
    expect(message?.content).toBe("three parts");
    expect(message?.attachments.map((a) => [a.filename, a.size])).toEqual(media.map((m) => [m.filename, 4 * MiB]));
    expect(message?.attachments.map((a, i) => same(a.bytes, (media[i] as { bytes: Uint8Array }).bytes))).toEqual([
      true,
      true,
      true,
    ]);
    expect(media.map((m) => m.opens)).toEqual([1, 1, 1]);
    const [request] = fake.server.requestsTo("POST", SEND);
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    // Sent with its exact length, as discord.js' FormData was: the files and a form of a few hundred bytes.
    const overhead = Number(request?.headers["content-length"]) - 12 * MiB;
    expect(overhead).toBeGreaterThan(0);
    expect(overhead).toBeLessThan(2 * KiB);
  });

  it("a 429 within maxRetryAfterMs is sat out and the upload sent again from fresh open()s: the message holds every byte", async () => {
    await start({ maxRetryAfterMs: 5_000 });
    fake.server.inject({ kind: "rateLimit", retryAfterSeconds: 0.05, match: { method: "POST", path: SEND } });
    const media = [1, 2].map((seed) => medium(seed, 300 * KiB));
    const ref = await channel.instance.send({ id: "200" }, { text: "", media });
    expect(fake.server.requestsTo("POST", SEND).map((r) => r.status)).toEqual([429, 200]);
    expect(media.map((m) => m.opens)).toEqual([2, 2]);
    const held = fake.state.messages.get(ref.messageId)?.attachments ?? [];
    expect(held.map((a, i) => same(a.bytes, (media[i] as { bytes: Uint8Array }).bytes))).toEqual([true, true]);
    expect(botMessages()).toHaveLength(1);
  });

  it("5xx on every attempt: each retry streams afresh, then a retryable E_PLATFORM; nothing is delivered", async () => {
    await start({ retries: 1 });
    fake.server.inject({ kind: "status", status: 502, times: Infinity, match: { method: "POST", path: SEND } });
    const media = [medium(1, 200 * KiB)];
    const error = await channel.instance.send({ id: "200" }, { text: "x", media }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true, details: { status: 502 } });
    expect(fake.server.requestsTo("POST", SEND).map((r) => r.status)).toEqual([502, 502]);
    expect(media[0]?.opens).toBe(2);
    expect(botMessages()).toEqual([]);
    expect(JSON.stringify(error)).not.toContain(fake.token);
  });

  it("a 429 longer than maxRetryAfterMs is a retryable E_RATE_LIMITED at once; the medium is read once, nothing delivered", async () => {
    await start();
    fake.server.inject({ kind: "rateLimit", retryAfterSeconds: 30, match: { method: "POST", path: SEND } });
    const media = [medium(1, 200 * KiB)];
    const error = await channel.instance.send({ id: "200" }, { text: "x", media }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "E_RATE_LIMITED", retryable: true });
    expect(media[0]?.opens).toBe(1);
    expect(botMessages()).toEqual([]);
  });

  it("a medium that gives fewer or more bytes than declared stops the upload: E_INVALID_INPUT, no message, no retry", async () => {
    await start({ retries: 2 });
    for (const yields of [100 * KiB - 1, 100 * KiB + 1, 3 * 100 * KiB]) {
      const odd = medium(2, 100 * KiB, { yields });
      const media = [medium(1, 150 * KiB), odd];
      const error = await channel.instance.send({ id: "200" }, { text: "x", media }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "E_INVALID_INPUT", retryable: false });
      expect((error as Error).message).toContain(`"part-2.bin" gave`);
      expect(odd.opens).toBe(1);
    }
    expect(botMessages()).toEqual([]);
    // The fake saw each request cut off (status 0: the socket closed mid-body), never a complete form.
    const seen = await waitFor(() => {
      const requests = fake.server.requestsTo("POST", SEND);
      return requests.length === 3 && requests;
    });
    expect(seen.map((r) => r.status)).toEqual([0, 0, 0]);
  });

  it("a medium whose stream fails mid-upload: the send fails with that error, is not retried, and nothing is delivered", async () => {
    await start({ retries: 2 });
    const media = [medium(1, 600 * KiB, { failAt: 256 * KiB })];
    await expect(channel.instance.send({ id: "200" }, { text: "x", media })).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: '"part-1.bin" could not be read for the upload: the media store went away',
    });
    expect(media[0]?.opens).toBe(1);
    expect(botMessages()).toEqual([]);
  });
});

describe("the fake Discord reads uploads as Discord does", () => {
  it("takes a chunked multipart body without Content-Length", async () => {
    await start();
    const boundary = "----chunked";
    const parts = [
      `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n${JSON.stringify({ content: "hi", attachments: [{ id: 0, filename: "a.txt" }] })}\r\n`,
      `--${boundary}--\r\n`,
    ];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const answer = await fetch(`${fake.url}/api/v10/channels/200/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${fake.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(answer.status).toBe(200);
    const [request] = fake.server.requestsTo("POST", SEND);
    expect(request?.headers).toMatchObject({ "transfer-encoding": "chunked" });
    expect(request?.headers["content-length"]).toBeUndefined();
    const [message] = botMessages();
    expect(message?.content).toBe("hi");
    expect(new TextDecoder().decode(message?.attachments[0]?.bytes)).toBe("hello");
  });
});
