import { MemoryStore } from "@chorus/channel-kit/state";
import { type RunningChannel, startChannel } from "../context.js";
import { LogRecorder, safeJson } from "../log-recorder.js";
import type { ContractCase } from "./cases.js";
import { networkHook } from "./fixture-hooks.js";
import type { ChannelHarness } from "./harness.js";
import { check } from "./violation.js";

/** Where a secret was found, without repeating the secret. */
function leaks(secrets: readonly string[], places: [string, unknown][]): string[] {
  const found: string[] = [];
  for (const [where, value] of places) {
    // Nothing to search: a start that did not fail (a plugin may start degraded) has no error.
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : safeJson(value);
    for (const secret of secrets) {
      if (secret.length < 6) continue;
      if (text.includes(secret) || text.includes(encodeURIComponent(secret))) {
        found.push(`${where} (secret ${secret.slice(0, 2)}…${secret.slice(-2)})`);
      }
    }
  }
  return found;
}

/** The secrets rule: no configured secret in any error, status, event or log line. */
export const SECRET_CASES: readonly ContractCase<ChannelHarness>[] = [
  {
    name: "secrets: against an unreachable platform, no secret appears in the start error, the status or the log",
    applies: () => true,
    async run(h) {
      const unreachable = networkHook(h.fixture, "unreachableConfig");
      // Its own recorder: the lines logged before a failed start are kept too.
      const logs = new LogRecorder();
      let probe: RunningChannel | undefined;
      let failure: unknown;
      // A linked channel gets its credentials, so the probe really tries them against nothing.
      const store = new MemoryStore();
      await h.fixture.linkAccount?.(store);
      try {
        probe = await h.within(
          "starting against an unreachable platform",
          startChannel(h.plugin, {
            // In process nothing is unreachable: the same probe with the fixture's own config.
            config: unreachable ? unreachable() : h.fixture.config,
            store,
            logger: logs.logger,
          }),
        );
      } catch (error) {
        failure = error;
      }
      const places: [string, unknown][] = [["the start error", failure]];
      if (probe) {
        places.push(["the status", probe.instance.status()]);
        const sent = await probe.instance.send(h.fixture.conversation, { text: "x" }).catch((e: unknown) => e);
        places.push(["a send's error", sent], ["the status after a send", probe.instance.status()]);
        await probe.stop();
      }
      places.push(...logs.records.map((r): [string, unknown] => [`a ${r.level} log line "${r.message}"`, r]));
      const found = leaks(h.fixture.secrets, places);
      check(found.length === 0, `a configured secret was reported in: ${found.join("; ")}`);
    },
  },
  {
    name: "secrets: no secret appears in any error, status, event or log line of the whole run",
    applies: () => true,
    async run(h) {
      h.observe();
      const places: [string, unknown][] = [
        ...h.observed.map((value, i): [string, unknown] => [
          value instanceof Error ? `an error (${value.message.slice(0, 60)})` : `status #${i}`,
          value,
        ]),
        ...h.running.events.map((e): [string, unknown] => [`a ${e.type} event`, e]),
        ...h.running.logs.records.map((r): [string, unknown] => [`a ${r.level} log line "${r.message}"`, r]),
      ];
      const found = leaks(h.fixture.secrets, places);
      check(found.length === 0, `a configured secret was reported in: ${[...new Set(found)].join("; ")}`);
    },
  },
];
