import { randomUUID } from "node:crypto";
import { type ChannelState, isChorusError } from "@chorus/core";
import type { PlatformFault } from "../fake-server/faults.js";
import type { ContractCase } from "./cases.js";
import { networkHook } from "./fixture-hooks.js";
import type { ChannelHarness } from "./harness.js";
import { check } from "./violation.js";

const STATES: readonly ChannelState[] = ["starting", "running", "degraded", "failed", "stopped"];
const FAULTS: readonly PlatformFault[] = ["refuse", "close", "hang", "garbage"];

/** The status is one the gateway understands, and a degraded or failed one says why. */
function checkStatus(h: ChannelHarness, when: string): void {
  let status: ReturnType<typeof h.instance.status>;
  try {
    status = h.instance.status();
  } catch (error) {
    check(false, `status() threw ${when}: ${String(error)}`);
    throw error;
  }
  h.observed.push(status);
  check(STATES.includes(status.state), `status().state is ${JSON.stringify(status.state)} ${when}`);
  check(
    (status.state !== "degraded" && status.state !== "failed") ||
      (typeof status.detail === "string" && status.detail.trim() !== ""),
    `a ${status.state} status needs a detail saying why (${when})`,
  );
}

/** A failure the plugin reports must be a typed `ChorusError` with a message. */
function checkTyped(error: unknown, what: string): void {
  check(
    isChorusError(error),
    `${what} failed with ${error instanceof Error ? `a plain ${error.name}` : String(error)}, not a ChorusError: ${String(error)}`,
  );
  check(error.message.trim() !== "", `${what} failed with an empty message`);
}

/** After the platform healed, the instance receives and sends again. */
async function checkRecovered(h: ChannelHarness, kind: PlatformFault): Promise<void> {
  const text = `contract recovered from ${kind} ${randomUUID().slice(0, 8)}`;
  await h.within("delivering after the fault", Promise.resolve(h.fixture.userSends(text, h.running.hooksUrl)));
  try {
    await h.running.waitForEvent((e) => e.type === "message" && e.text === text, h.stepTimeoutMs);
  } catch {
    check(false, `after the platform stopped failing (${kind}) a message someone wrote was never emitted`);
  }
  await h.within("sending after the fault", h.record(h.instance.send(h.fixture.conversation, { text: "recovered" })));
}

/** In process there is no platform to fail: a send to a conversation that does not exist must fail typed. */
async function inProcessFault(h: ChannelHarness, kind: PlatformFault): Promise<void> {
  const failure = await h
    .within(
      "a send to a conversation that does not exist",
      h.record(h.instance.send({ id: "contract-no-such-conversation" }, { text: "x" })),
    )
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  check(failure !== undefined, "a send to a conversation that does not exist succeeded");
  checkTyped(failure, "a send to a conversation that does not exist");
  checkStatus(h, "after a send to a conversation that does not exist");
  await checkRecovered(h, kind);
}

function atStart(kind: PlatformFault): ContractCase<ChannelHarness> {
  return {
    name: `faults: a platform that fails at start (${kind}) leaves a typed error or a status with a reason, and the channel starts once it heals`,
    applies: () => true,
    async run(h) {
      const fault = networkHook(h.fixture, "fault");
      const heal = networkHook(h.fixture, "heal");
      if (!fault || !heal) {
        await h.restart();
        checkStatus(h, "after a restart");
        return inProcessFault(h, kind);
      }
      await fault(kind);
      let failure: unknown;
      try {
        await h.restart();
      } catch (error) {
        failure = error;
      } finally {
        await heal();
      }
      if (failure !== undefined) {
        if (failure instanceof Error && failure.name === "ContractViolation") throw failure;
        checkTyped(failure, `start() against a platform that fails (${kind})`);
      } else {
        checkStatus(h, `after starting against a platform that fails (${kind})`);
      }
      await h.restart();
      await checkRecovered(h, kind);
    },
  };
}

function whileRunning(kind: PlatformFault): ContractCase<ChannelHarness> {
  return {
    name: `faults: a platform that fails while running (${kind}) makes calls fail with typed errors, and the channel recovers`,
    applies: () => true,
    async run(h) {
      const fault = networkHook(h.fixture, "fault");
      const heal = networkHook(h.fixture, "heal");
      if (!fault || !heal) return inProcessFault(h, kind);
      await fault(kind);
      let failure: unknown;
      try {
        await h.within(
          `a send while the platform fails (${kind})`,
          h.record(h.instance.send(h.fixture.conversation, { text: `contract during ${kind}` })),
        );
      } catch (error) {
        failure = error;
      }
      checkStatus(h, `while the platform fails (${kind})`);
      await heal();
      if (failure instanceof Error && failure.name === "ContractViolation") throw failure;
      check(failure !== undefined, `a send succeeded while every request to the platform failed (${kind})`);
      checkTyped(failure, `a send while the platform fails (${kind})`);
      await checkRecovered(h, kind);
    },
  };
}

/** The fault rules every channel must keep: refused, closed, hung and garbled platforms. */
export const FAULT_CASES: readonly ContractCase<ChannelHarness>[] = FAULTS.flatMap((kind) => [
  atStart(kind),
  whileRunning(kind),
]);
