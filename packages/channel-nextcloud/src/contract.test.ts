import { describeReactionContract } from "@chorus/testkit/vitest";
import { nextcloudChannel } from "./index.js";
import { createFakeTalk } from "./testing/index.js";

const ann = { id: "ann", name: "Ann" };

// The suite every channel runs, against the reactions the fake Talk really holds. Talk does not
// tell a bot the id of what it sent, so the bot reacts to people's messages (createMessage).
describeReactionContract("Nextcloud Talk reaction contract", {
  plugin: nextcloudChannel,
  async setup() {
    const fake = createFakeTalk();
    await fake.start();
    const bot = fake.installBot({
      name: "Chorus",
      secret: "s".repeat(48),
      url: "http://127.0.0.1/hooks/nextcloud/default",
    });
    fake.addRoom({ token: "team", name: "Team" });
    fake.setupBot(bot, "team");
    return {
      config: fake.config(bot),
      conversation: { id: "team" },
      createMessage: (instance, index) => {
        const hook = fake.userSends({ token: "team", user: ann, message: `contract target ${index}` });
        return instance.resolveMessageRef({ id: "team" }, hook.object.id);
      },
      botReactions: (ref) => fake.botReactions(Number(ref.messageId), bot),
      addForeignReaction: (ref, emoji) => {
        fake.userReacts(Number(ref.messageId), ann, emoji);
      },
      foreignReactions: (ref) => fake.reactionsBy(Number(ref.messageId), "users/ann"),
      close: () => fake.close(),
    };
  },
});
