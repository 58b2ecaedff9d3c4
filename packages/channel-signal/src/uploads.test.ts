import { randomBytes } from "node:crypto";
import { collectBytes } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { attachmentsBody, base64Length, dataUriHead } from "./uploads.js";

/** A medium whose bytes come in pieces of `piece` bytes, opened afresh each time, counting opens. */
function medium(bytes: Uint8Array, piece: number, extra: Partial<OutboundMedium> = {}) {
  const counts = { opened: 0 };
  const value: OutboundMedium = {
    kind: "file",
    mime: "application/octet-stream",
    filename: "blob.bin",
    size: bytes.byteLength,
    open: () => {
      counts.opened += 1;
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.byteLength) return controller.close();
          controller.enqueue(bytes.slice(at, at + piece));
          at += piece;
        },
      });
    },
    ...extra,
  };
  return { value, counts };
}

const request = {
  jsonrpc: "2.0",
  id: 7,
  method: "send",
  params: { account: "+15550001000", groupId: "g=", message: "héllo 👋" },
};

describe("attachmentsBody: send's attachments as data: URIs, streamed", () => {
  it("is the JSON-RPC request with each medium's data: URI, exactly as long as it says, whatever the pieces", async () => {
    for (const piece of [1, 2, 3, 1000, 70_000]) {
      const files = [randomBytes(piece < 10 ? 1_001 : 100_001), randomBytes(2), randomBytes(3)];
      const body = attachmentsBody(
        request,
        files.map((bytes) => medium(bytes, piece).value),
      );
      const sent = await collectBytes(body.open(), 10_000_000, "body");
      expect(sent.byteLength).toBe(body.length);
      const parsed = JSON.parse(new TextDecoder().decode(sent));
      expect(parsed).toEqual({
        ...request,
        params: {
          ...request.params,
          attachments: files.map(
            (bytes) => `data:application/octet-stream;filename=blob.bin;base64,${bytes.toString("base64")}`,
          ),
        },
      });
    }
  });

  it("opens each medium only when its turn comes, and again for another attempt", async () => {
    const first = medium(randomBytes(10), 4);
    const second = medium(randomBytes(10), 4);
    const body = attachmentsBody(request, [first.value, second.value]);
    expect([first.counts.opened, second.counts.opened]).toEqual([0, 0]);
    const reader = body.open().getReader();
    // The request's head, the first URI's head, its first base64.
    for (let i = 0; i < 3; i++) await reader.read();
    expect([first.counts.opened, second.counts.opened]).toEqual([1, 0]);
    await reader.cancel();
    await collectBytes(body.open(), 1_000_000, "again");
    expect([first.counts.opened, second.counts.opened]).toEqual([2, 1]);
  });

  it("fails the body when a medium gives more bytes than its size", async () => {
    const liar = medium(randomBytes(20), 7, { size: 10 });
    await expect(collectBytes(attachmentsBody(request, [liar.value]).open(), 1_000_000, "body")).rejects.toMatchObject({
      code: "E_INVALID_INPUT",
      message: '"blob.bin" gave more bytes than its size (10)',
    });
  });
});

describe("dataUriHead: the part of a data: URI signal-cli reads type and name from", () => {
  it("keeps type/subtype only and percent-encodes the name, so ; , = cannot end it", () => {
    expect(dataUriHead({ kind: "audio", mime: "audio/ogg; codecs=opus", filename: "a;b,c=d e.ogg" })).toBe(
      "data:audio/ogg;filename=a%3Bb%2Cc%3Dd%20e.ogg;base64,",
    );
    expect(dataUriHead({ kind: "file", mime: "nonsense", filename: "" })).toBe(
      "data:application/octet-stream;filename=file;base64,",
    );
    expect([0, 1, 2, 3, 4].map(base64Length)).toEqual([0, 4, 4, 4, 8]);
  });
});
