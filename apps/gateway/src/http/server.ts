import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ChorusError } from "@chorus/core";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface ListeningServer {
  server: Server;
  /** `http://<bind>:<port>` as people reach it. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves `app` on `bind:port`; a taken port or a bad address is a clear error. */
export async function listen(app: Hono, bind: string, port: number): Promise<ListeningServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EADDRINUSE"
          ? `port ${port} on ${bind} is already in use (set gateway.port, or stop the other process)`
          : `cannot listen on ${bind}:${port}: ${error.message}`;
      reject(new ChorusError("E_INVALID_INPUT", reason, { cause: error }));
    });
    server.listen(port, bind, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}
