import { describeReactionContract } from "@chorus/testkit/vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram } from "./testing/index.js";

const ANN = { id: 501, is_bot: false, first_name: "Ann" } as const;

// Every DESIGN §2.2 case the Telegram flags (clearAll, singleSlot, vocabulary) make relevant,
// checked against the reactions the fake Bot API really holds afterwards.
describeReactionContract("Telegram reaction contract", {
  plugin: telegramChannel,
  async setup() {
    const fake = createFakeTelegram();
    await fake.start();
    fake.addChat({ id: -1001, type: "supergroup", title: "Team" });
    const chat = (ref: { data?: { readonly [k: string]: unknown } }) => Number(ref.data?.chatId);
    return {
      config: fake.config(),
      conversation: { id: "-1001" },
      botReactions: (ref) => fake.botReactions(chat(ref), Number(ref.messageId)),
      addForeignReaction: (ref, emoji) => {
        fake.userReacts(chat(ref), Number(ref.messageId), ANN, [emoji.replace(/\uFE0F/g, "")]);
      },
      foreignReactions: (ref) => fake.reactionsBy(chat(ref), Number(ref.messageId), ANN.id),
      close: () => fake.close(),
    };
  },
});
