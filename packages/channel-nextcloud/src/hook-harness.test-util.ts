import { type RunningChannel, startChannel } from "@chorus/testkit";
import { nextcloudChannel } from "./index.js";
import { createFakeTalk, type DeliverOptions, type FakeBot, type FakeTalk } from "./testing/index.js";

/** The URL the bot in `fixtures/talk-hooks.ts` was installed with (its actor id comes from it). */
export const FIXTURE_WEBHOOK_URL = "https://gateway.example.com/hooks/nextcloud/default";

/** A fake Talk with a room `team` and the fixtures' bot, and a running instance for it. */
export interface HookHarness {
  fake: FakeTalk;
  bot: FakeBot;
  running: RunningChannel;
  /** The instance's webhook URL. */
  hook: string;
  /** Posts a body to the instance as Talk does; resolves with the answer's status. */
  deliver(body: string | object, options?: DeliverOptions): Promise<number>;
  close(): Promise<void>;
}

/** Starts the fake Talk and an instance whose bot is installed with `FIXTURE_WEBHOOK_URL` (`extra` config on top). */
export async function startHookHarness(extra: Record<string, unknown> = {}): Promise<HookHarness> {
  const fake = createFakeTalk();
  await fake.start();
  fake.addRoom({ token: "team", name: "Team" });
  const bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: FIXTURE_WEBHOOK_URL });
  const running = await startChannel(nextcloudChannel, {
    config: fake.config(bot, { webhookUrl: FIXTURE_WEBHOOK_URL, ...extra }),
  });
  const hook = running.ctx.http.url("/default");
  return {
    fake,
    bot,
    running,
    hook,
    deliver: async (body, options) => (await fake.deliver(hook, bot, body, options)).status,
    async close() {
      await running.stop();
      await fake.close();
    },
  };
}
