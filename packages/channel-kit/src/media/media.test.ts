import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { ChorusError } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedServer } from "../test-support.test-util.js";
import { capStream, collectBytes, streamOf } from "./capped-stream.js";
import { downloadMedium } from "./download.js";
import { multipartBody } from "./multipart.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function errorOf(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

/** A stream of `chunks` chunks of `size` bytes that counts how many were pulled. */
function counted(chunks: number, size: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled++;
        controller.enqueue(new Uint8Array(size).fill(pulled));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

describe("capStream", () => {
  it("passes a stream within the cap through unchanged", async () => {
    const bytes = await collectBytes(counted(4, 10).stream, 40, "the file");
    expect(bytes.byteLength).toBe(40);
    expect(bytes[39]).toBe(4);
  });

  it("fails with E_TOO_LARGE past the cap and stops reading the source there", async () => {
    const source = counted(1000, 1024);
    const error = await errorOf(collectBytes(source.stream, 10 * 1024, "Telegram file abc"));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe("Telegram file abc is over 10 KB.");
    expect(source.pulled()).toBe(11);
  });

  it("cancels the source when its reader gives up", async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(1)),
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const reader = capStream(source, 100, "x").getReader();
    await reader.read();
    await reader.cancel("enough");
    expect(cancelled).toBe("enough");
  });
});

describe("multipartBody", () => {
  it("is a form Node's own parser reads back: fields, files, escaped names, exact length", async () => {
    const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]);
    const form = multipartBody([
      { name: "chat_id", value: "-100123" },
      { name: "caption", value: 'ünïcode "quoted"\r\nline' },
      {
        name: "photo",
        filename: 'a "b"\n.png',
        contentType: "image/png",
        size: photo.byteLength,
        open: () => streamOf(photo),
      },
    ]);
    const raw = new Uint8Array(await new Response(form.body).arrayBuffer());
    expect(raw.byteLength).toBe(form.contentLength);
    const parsed = await new Response(raw, { headers: { "content-type": form.contentType } }).formData();
    expect(parsed.get("chat_id")).toBe("-100123");
    expect(parsed.get("caption")).toBe('ünïcode "quoted"\r\nline');
    const file = parsed.get("photo") as File;
    expect(file.name).toBe('a "b"\n.png');
    expect(file.type).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(photo);
  });

  it("streams through fetch with its Content-Length, and fails when a file gives other bytes than declared", async () => {
    const seen: { headers: IncomingHttpHeaders; bytes: number }[] = [];
    const server = createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      req.on("end", () => {
        seen.push({ headers: req.headers, bytes });
        res.end("ok");
      });
      req.on("error", () => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
    const big = new Uint8Array(3 * 1024 * 1024);
    const form = multipartBody([
      {
        name: "file",
        filename: "big.bin",
        contentType: "application/octet-stream",
        size: big.byteLength,
        open: () => streamOf(big),
      },
    ]);
    const answer = await fetch(url, {
      method: "POST",
      body: form.body,
      headers: { "content-type": form.contentType, "content-length": String(form.contentLength) },
      duplex: "half",
    } as RequestInit);
    expect(await answer.text()).toBe("ok");
    expect(seen[0]?.bytes).toBe(form.contentLength);
    expect(seen[0]?.headers["content-length"]).toBe(String(form.contentLength));

    const short = multipartBody([
      { name: "file", filename: "x", contentType: "text/plain", size: 10, open: () => streamOf(new Uint8Array(3)) },
    ]);
    await expect(new Response(short.body).arrayBuffer()).rejects.toThrow('"x" gave 3 bytes, 10 were declared');
    expect(short.failure()).toMatchObject({
      code: "E_INVALID_INPUT",
      retryable: false,
      details: { declared: 10, read: 3 },
    });
  });

  it("stops a file that gives more than its size before the byte too many, and names a file whose stream failed", async () => {
    const long = multipartBody([
      { name: "file", filename: "y", contentType: "text/plain", size: 4, open: () => streamOf(new Uint8Array(9)) },
    ]);
    const reader = long.body.getReader();
    // The file is nine zero bytes; the part's head has none.
    let fileBytes = 0;
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          fileBytes += value.filter((byte) => byte === 0).length;
        }
      })(),
    ).rejects.toThrow('"y" gave more than 4 bytes, 4 were declared');
    // Only the part's head went out: no byte of the over-long file.
    expect(fileBytes).toBe(0);
    expect(long.failure()?.code).toBe("E_INVALID_INPUT");

    const broken = multipartBody([
      {
        name: "file",
        filename: "z.bin",
        contentType: "application/octet-stream",
        size: 4,
        open: () =>
          new ReadableStream({
            pull: (controller) => controller.error(new Error("the media store went away")),
          }),
      },
    ]);
    await expect(new Response(broken.body).arrayBuffer()).rejects.toThrow();
    expect(broken.failure()).toMatchObject({
      code: "E_PLATFORM",
      message: '"z.bin" could not be read for the upload: the media store went away',
    });
  });
});

describe("downloadMedium", () => {
  it("streams the body with its type and size, sending credentials to the platform's origin", async () => {
    const server = await scriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "image/png; charset=binary", "content-length": "3" });
      res.end(Buffer.from([1, 2, 3]));
    });
    closers.push(server.close);
    const medium = await downloadMedium(`${server.url}/file/a.png`, {
      maxBytes: 10,
      what: "the photo",
      headers: { authorization: "Bearer t0ken-value" },
      credentialOrigins: [server.url],
    });
    expect(medium.mime).toBe("image/png");
    expect(medium.size).toBe(3);
    expect(await collectBytes(medium.stream, 10, "x")).toEqual(new Uint8Array([1, 2, 3]));
    expect(server.received[0]?.headers.authorization).toBe("Bearer t0ken-value");
  });

  it("follows a redirect to another host without the credentials", async () => {
    const cdn = await scriptedServer((_req, res) => res.end("bytes"));
    const api = await scriptedServer((_req, res) => {
      res.writeHead(302, { location: `${cdn.url}/blob` });
      res.end();
    });
    closers.push(cdn.close, api.close);
    const medium = await downloadMedium(`${api.url}/file`, {
      maxBytes: 100,
      what: "the file",
      headers: { authorization: "Bearer t0ken-value" },
      credentialOrigins: [api.url],
    });
    expect(new TextDecoder().decode(await collectBytes(medium.stream, 100, "x"))).toBe("bytes");
    expect(api.received[0]?.headers.authorization).toBe("Bearer t0ken-value");
    expect(cdn.received[0]?.headers.authorization).toBeUndefined();
  });

  it("refuses a declared size over the cap before reading, and a body that grows past it", async () => {
    const declared = await scriptedServer((_req, res) => {
      res.writeHead(200, { "content-length": String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    closers.push(declared.close);
    const error = await errorOf(downloadMedium(declared.url, { maxBytes: 20 * 1024 * 1024, what: "the video" }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe("the video is 50 MB, over 20 MB.");

    const undeclared = await scriptedServer((_req, res) => {
      res.writeHead(200, { "transfer-encoding": "chunked" });
      res.end(Buffer.alloc(4096));
    });
    closers.push(undeclared.close);
    const medium = await downloadMedium(undeclared.url, { maxBytes: 1000, what: "the file" });
    expect((await errorOf(collectBytes(medium.stream, 1_000_000, "x"))).code).toBe("E_TOO_LARGE");
  });

  it("says a missing medium is not found and a refused one E_AUTH, naming the medium and never the URL", async () => {
    const server = await scriptedServer(
      (_req, res) => {
        res.writeHead(404);
        res.end("gone");
      },
      (_req, res) => {
        res.writeHead(401);
        res.end("no");
      },
    );
    closers.push(server.close);
    const url = `${server.url}/file/bot123456:SECRET/photo.jpg`;
    const missing = await errorOf(downloadMedium(url, { maxBytes: 10, what: "Telegram file F1" }));
    expect(missing.code).toBe("E_MESSAGE_NOT_FOUND");
    expect(missing.message).toBe("Downloading Telegram file F1 failed: HTTP 404.");
    const refused = await errorOf(downloadMedium(url, { maxBytes: 10, what: "Telegram file F1" }));
    expect(refused.code).toBe("E_AUTH");
    expect(JSON.stringify([missing, refused, missing.message, refused.message])).not.toContain("SECRET");
  });
});
