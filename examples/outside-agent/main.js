#!/usr/bin/env node
// Runs the example outside agent against a gateway: CHORUS_URL (default http://127.0.0.1:7800),
// CHORUS_TOKEN (`chorus token` prints it), CHORUS_LAST_EVENT_ID to resume (e.g. 0: from the oldest
// event the gateway still keeps). Prints one JSON line per event it handled.
import { runOutsideAgent } from "./agent.js";

const token = process.env.CHORUS_TOKEN;
if (!token) {
  process.stderr.write("set CHORUS_TOKEN (chorus token prints it)\n");
  process.exit(2);
}
const stop = new AbortController();
process.on("SIGTERM", () => stop.abort());
process.on("SIGINT", () => stop.abort());
await runOutsideAgent({
  url: (process.env.CHORUS_URL ?? "http://127.0.0.1:7800").replace(/\/$/, ""),
  token,
  ...(process.env.CHORUS_LAST_EVENT_ID ? { lastEventId: process.env.CHORUS_LAST_EVENT_ID } : {}),
  signal: stop.signal,
  onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
});
