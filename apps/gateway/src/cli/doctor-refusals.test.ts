import { Redactor } from "@chorus/channel-kit";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { type ListeningServer, listen, Readiness, type ReadinessOptions, registerProbeRoutes } from "../http/index.js";
import { reportRefusals } from "./doctor.js";

describe("chorus doctor: accounts whose messages the running gateway refuses", () => {
  let server: ListeningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  /** A gateway's `/readyz` on 127.0.0.1, as the running gateway serves it. */
  const serve = async (options: Partial<ReadinessOptions>) => {
    const readiness = new Readiness({
      probeState: async () => 1,
      channels: () => [
        { id: "slack", account: "work", status: { state: "running" }, holder: "gw", leased: false },
        { id: "telegram", account: "default", status: { state: "running" }, holder: "gw", leased: false },
      ],
      gatewayId: "gw",
      refusals: () => ({ count: 0 }),
      windowMinutes: 15,
      redact: (text) => new Redactor().text(text),
      ...options,
    });
    const app = new Hono();
    registerProbeRoutes(app, { token: "doctor-test-token-0123456789", readiness: () => readiness.check() });
    server = await listen(app, "127.0.0.1", 0);
    return server.url;
  };
  const linesOf = async (url: string) => {
    const lines: string[] = [];
    await reportRefusals(url, (level, line, fix) => lines.push(`${level} ${line}${fix ? ` | fix: ${fix}` : ""}`));
    return lines;
  };

  it("lists each account with commits refused in the window, with the last error", async () => {
    const url = await serve({
      refusals: (channel) =>
        channel === "slack"
          ? { count: 4, lastAt: Date.UTC(2030, 0, 1, 10, 42), lastError: "the state database is unavailable" }
          : { count: 0 },
    });
    const lines = await linesOf(url);
    expect(lines).toEqual([
      expect.stringMatching(
        /^warning running gateway: channel slack \(work\): 4 inbound events refused in the last 15 minutes — the commit failed \(last at 2030-01-01T10:42:00\.000Z: the state database is unavailable\) \| fix: /,
      ),
    ]);
  });

  it("says a state the gateway cannot reach; nothing when all is well", async () => {
    expect(await linesOf(await serve({}))).toEqual([]);
    await server?.close();
    server = undefined;
    const lines = await linesOf(await serve({ probeState: () => Promise.reject(new Error("connection refused")) }));
    expect(lines).toEqual([
      expect.stringMatching(/^error running gateway: state unreachable: connection refused \| fix: /),
    ]);
  });
});
