import { readFile } from "node:fs/promises";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles, type FakeBlueBubbles, type FakeHook } from "./testing/index.js";

/** A webhook body from `fixtures/` (its README says where each shape comes from). */
export async function fixture(name: string): Promise<FakeHook> {
  return JSON.parse(await readFile(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as FakeHook;
}

/** A fake BlueBubbles server and an instance started on it, with the webhook URL it registered. */
export interface OnFake {
  fake: FakeBlueBubbles;
  running: RunningChannel;
  hookUrl: string;
}

/** Starts a fake BlueBubbles server and an instance on it (with `webhookSecret`). */
export async function startOnFake(webhookSecret: string): Promise<OnFake> {
  const fake = createFakeBlueBubbles();
  await fake.start();
  const running = await startChannel(imessageChannel, { config: fake.config({ webhookSecret }) });
  return { fake, running, hookUrl: fake.state.webhooks[0]?.url ?? "" };
}

/** Stops what `startOnFake` started. */
export async function stopOnFake({ fake, running }: Omit<OnFake, "hookUrl">): Promise<void> {
  await running.stop();
  await fake.close();
}
