import { createServer } from "node:net";

/** An http URL on 127.0.0.1 where nothing listens (a port that was just free): an unreachable `apiRoot`. */
export async function unreachableApiRoot(): Promise<string> {
  const probe = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  return `http://127.0.0.1:${port}`;
}
