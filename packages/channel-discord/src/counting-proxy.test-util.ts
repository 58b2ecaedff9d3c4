import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A TCP proxy on 127.0.0.1 in front of a fake, counting the bytes clients send through it. */
export interface CountingProxy {
  /** `http://127.0.0.1:PORT`, forwarding every connection to the target. */
  readonly url: string;
  /** Bytes clients sent so far: read off their sockets and passed on to the target. */
  readonly received: number;
  /** Resolves once `received` reaches `bytes`; rejects with what it saw if that takes over `timeoutMs`. */
  reached(bytes: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (`http://127.0.0.1:PORT`): what a client writes reaches the target
 * only through it, so a test can tell how far an upload has gone on the wire.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const waiters = new Set<{ bytes: number; done: () => void }>();
  let received = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      for (const waiter of waiters) if (received >= waiter.bytes) waiter.done();
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get received() {
      return received;
    },
    reached(bytes, timeoutMs = 10_000) {
      if (received >= bytes) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          bytes,
          done: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the fake received ${received} bytes in ${timeoutMs} ms, never ${bytes}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
