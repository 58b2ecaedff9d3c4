import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32, deflateSync } from "node:zlib";

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b));
}

/**
 * A real PNG (RFC 2083: signature, IHDR, one IDAT of zlib-compressed scanlines, IEND, each chunk
 * with its CRC-32) of `side`×`side` pixels of one colour: distinct pictures for a test to tell apart.
 */
export function solidPng(rgb: readonly [number, number, number], side = 8): Uint8Array {
  const row = Buffer.from(Array.from({ length: side }, () => rgb).flat());
  return png(side, () => row);
}

/** A PNG of `side`×`side` random pixels: about `3 × side²` bytes that do not compress, like a photo's. */
export function noisyPng(side: number): Uint8Array {
  return png(side, () => randomBytes(side * 3));
}

/** A truecolour PNG whose rows of RGB bytes `rowOf` gives. */
function png(side: number, rowOf: (y: number) => Buffer): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.byteLength);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a sample, truecolour, deflate, adaptive filtering, no interlace
  // Each scanline starts with its filter type (0: none).
  const rows = Array.from({ length: side }, (_, y) => Buffer.concat([Buffer.from([0]), rowOf(y)]));
  const pixels = deflateSync(Buffer.concat(rows));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]),
  );
}

/** What the file server answers on a path: bytes with their type, or a redirect. */
export type Served = { bytes: Uint8Array; type: string } | { redirect: string };

/** A loopback HTTP server with fixed answers: where a `url` media item is fetched from. */
export interface FileServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `127.0.0.1:PORT`, as `media.allowHosts` lists it. */
  readonly hostPort: string;
  /** The paths requested so far, in order. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** Starts a file server on 127.0.0.1 answering `routes` (path → answer), 404 elsewhere. */
export async function startFileServer(routes: Record<string, Served>): Promise<FileServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    hits.push(path);
    const answer = routes[path];
    if (!answer) {
      response.writeHead(404).end();
    } else if ("redirect" in answer) {
      response.writeHead(302, { location: answer.redirect }).end();
    } else {
      response.writeHead(200, { "content-type": answer.type, "content-length": answer.bytes.byteLength });
      response.end(answer.bytes);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
