import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ChorusError } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedServer } from "../test-support.test-util.js";
import { HttpClient } from "./client.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("HttpClient under garbage collection", () => {
  it.each([
    ["without", undefined],
    ["with", new AbortController().signal],
  ])(
    "times out a body that stalls after its headers, %s the instance's signal, while garbage is collected",
    async (_, signal) => {
      const server = await scriptedServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"ok":');
      });
      close = server.close;
      const client = new HttpClient({
        label: "Acme",
        baseUrl: `${server.url}/api/`,
        timeoutMs: 300,
        retries: 0,
        maxRetryAfterMs: 0,
        ...(signal ? { signal } : {}),
      });
      const collecting = setInterval(gc, 10);
      try {
        const settled = client.request({ method: "GET", path: "slow" }).then(
          () => "resolved",
          (error: unknown) => error,
        );
        const outcome = await Promise.race([
          settled,
          new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
        ]);
        expect(outcome).toBeInstanceOf(ChorusError);
        expect((outcome as ChorusError).message).toContain("no answer within 300 ms");
      } finally {
        clearInterval(collecting);
      }
    },
  );
});
