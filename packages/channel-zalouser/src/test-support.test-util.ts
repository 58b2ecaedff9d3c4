import { MemoryStore } from "@chorus/channel-kit/state";
import { type InboundMessageEvent, type MessageRef, performReaction } from "@chorus/core";
import { startChannel } from "@chorus/testkit";
import { zalouserChannel } from "./index.js";
import { fakeWorld } from "./testing/fixture.js";

/** The fake Zalo world with the channel started on a linked store. */
export async function linkedChannel(
  options: { config?: Record<string, unknown>; fake?: Parameters<typeof fakeWorld>[0] } = {},
) {
  const world = await fakeWorld(options.fake);
  const store = new MemoryStore();
  await world.link(store);
  const running = await startChannel(zalouserChannel, { config: world.config(options.config), store });
  return {
    ...world,
    store,
    running,
    /** The message event of Zalo message `msgId`, once the channel emitted it. */
    inbound: (msgId: string) =>
      running.waitForEvent((e): e is InboundMessageEvent => e.type === "message" && e.ref.messageId === msgId, 5_000),
    /** A `react` call as the agent makes it: core's rules, then the plugin. */
    react: (ref: MessageRef, call: Record<string, unknown>) =>
      performReaction({ plugin: zalouserChannel, instance: running.instance, ref, call }),
    async close(): Promise<void> {
      await running.stop();
      await world.fake.close();
    },
  };
}

export type LinkedChannel = Awaited<ReturnType<typeof linkedChannel>>;

/** The decrypted `params` of every request the fake answered on `path`. */
export function paramsSentTo(world: LinkedChannel, path: string): Record<string, unknown>[] {
  return world.fake.server.requestsTo("POST", path).map((request) => {
    const form = new URLSearchParams(request.rawBody);
    const session = [...world.fake.state.sessions.values()][0];
    return JSON.parse(world.decrypt(form.get("params") ?? "", session?.enk ?? "")) as Record<string, unknown>;
  });
}
