import { fileURLToPath } from "node:url";
import { createFakeDiscord } from "@chorus/channel-discord/testing";
import { createFakeTalk } from "@chorus/channel-nextcloud/testing";
import { FakeSignal } from "@chorus/channel-signal/testing";
import { createFakeSlack } from "@chorus/channel-slack/testing";
import { createFakeTelegram } from "@chorus/channel-telegram/testing";

const pluginDir = (id: string) => fileURLToPath(new URL(`../../../../packages/channel-${id}`, import.meta.url));

/** Fakes of some channels' platforms, running, and the gateway config that points the channels at them. */
export interface ChannelFakes {
  config: Record<string, unknown>;
  close(): Promise<void>;
}

/** The channels the cold-start benchmark configures, in order: the first `count` of them. */
export const FAKE_CHANNELS = ["telegram", "discord", "slack", "nextcloud", "signal"] as const;

/** Starts the fakes of the first `count` channels of `FAKE_CHANNELS`; the config loads each plugin from this clone. */
export async function startChannelFakes(count: number): Promise<ChannelFakes> {
  const closers: (() => Promise<void>)[] = [];
  const channels: Record<string, Record<string, unknown>> = {};
  const access = { groupPolicy: "open", dmPolicy: "open" };
  for (const id of FAKE_CHANNELS.slice(0, count)) {
    if (id === "telegram") {
      const fake = createFakeTelegram();
      await fake.start();
      closers.push(() => fake.close());
      channels[id] = { ...fake.config(), ...access };
    } else if (id === "discord") {
      const fake = createFakeDiscord();
      await fake.start();
      closers.push(() => fake.close());
      channels[id] = { ...fake.config(), ...access };
    } else if (id === "slack") {
      const fake = createFakeSlack();
      await fake.start();
      closers.push(() => fake.close());
      channels[id] = { ...fake.config(), ...access };
    } else if (id === "nextcloud") {
      const fake = createFakeTalk();
      await fake.start();
      closers.push(() => fake.close());
      channels[id] = {
        baseUrl: fake.url,
        secret: "bench-shared-secret-".padEnd(64, "x"),
        botName: "Chorus",
        ...access,
      };
    } else {
      const fake = new FakeSignal({ bot: { number: "+15550001000", name: "Chorus" } });
      await fake.start();
      closers.push(() => fake.close());
      channels[id] = { ...fake.config(), ...access };
    }
  }
  return {
    config: { plugins: { load: Object.keys(channels).map(pluginDir) }, channels },
    async close() {
      await Promise.all(closers.map((close) => close()));
    },
  };
}
