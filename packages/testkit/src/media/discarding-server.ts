import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback HTTP server that reads request bodies and keeps nothing of them. */
export interface DiscardingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The body bytes read so far, every request's together. */
  received(): number;
  close(): Promise<void>;
}

export interface DiscardingServerOptions {
  /** The answer's status; 200 unless set. */
  status?: number;
  /** The JSON answer to a request whose body was `received` bytes long. */
  json(received: number): unknown;
}

/** Starts a server on 127.0.0.1 that reads each request's body to the end, then answers it as `options` say. */
export async function startDiscardingServer(options: DiscardingServerOptions): Promise<DiscardingServer> {
  let total = 0;
  const server = createServer((request, response) => {
    let received = 0;
    request.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      total += chunk.byteLength;
    });
    request.on("end", () => {
      response.writeHead(options.status ?? 200, { "content-type": "application/json" });
      response.end(JSON.stringify(options.json(received)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => total,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
