import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mediumResponse } from "./media-response.js";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";
import { waitFor } from "./wait.js";

describe("mediumResponse", () => {
  let server: FakeServer;
  let served = 0;
  // Larger than what loopback sockets buffer (a few MB), so a stopped client shows.
  const bytes = new Uint8Array(16 * 1024 * 1024).map((_, i) => i % 251);

  beforeEach(async () => {
    served = 0;
    server = createFakeServer();
    await server.start();
    server.route("GET", "/file", () =>
      mediumResponse(bytes, {
        headers: { "content-type": "application/pdf" },
        served: (n) => {
          served += n;
        },
      }),
    );
  });

  afterEach(async () => {
    await server.close();
  });

  it("answers the bytes with their type and length, counting every byte written", async () => {
    const response = await fetch(`${server.url}/file`);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served).toBe(bytes.byteLength);
  });

  it("stops writing when the client stops reading", async () => {
    const response = await fetch(`${server.url}/file`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await waitFor(() => server.requestsTo("GET", "/file").length === 1);
    // What the loopback socket buffers took before the cancel, never the whole file.
    expect(served).toBeLessThan(bytes.byteLength / 2);
  });
});
