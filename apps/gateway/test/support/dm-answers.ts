import { eventually } from "@chorus/testkit";
import { expect } from "vitest";
import type { ModelWorld } from "./memory-setup.js";

/** Ann writes `text` in her DM (`dm-ann`) on the world's memory platform; resolves with the bot's answer to it. */
export async function annAsks(world: Pick<ModelWorld, "platform">, text: string): Promise<string> {
  const before = world.platform.messagesIn("dm-ann").length;
  world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text });
  return eventually(
    () => {
      const answer = world.platform
        .messagesIn("dm-ann")
        .slice(before)
        .find((m) => m.senderId === "bot");
      expect(answer).toBeDefined();
      return answer?.text as string;
    },
    { timeoutMs: 10_000 },
  );
}
