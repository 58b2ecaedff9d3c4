import { describeReactionContract } from "@chorus/testkit/vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles } from "./testing/index.js";
import { imessageVocabulary } from "./vocabulary.js";

const GROUP = "iMessage;+;chat100200300";
const ANN = "+15550001111";

// The suite every channel runs, against the tapbacks the fake BlueBubbles server really holds.
describeReactionContract("iMessage reaction contract", {
  plugin: imessageChannel,
  async setup() {
    const fake = createFakeBlueBubbles();
    await fake.start();
    fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN, "+15550002222"] });
    return {
      config: fake.config({ webhookUrl: "http://127.0.0.1:9/hooks/imessage/default" }),
      conversation: { id: GROUP },
      createMessage: (instance, index) => {
        const hook = fake.userSends({ chatGuid: GROUP, from: ANN, text: `contract target ${index}` });
        return instance.resolveMessageRef({ id: GROUP }, hook.guid);
      },
      botReactions: (ref) => fake.botTapbacks(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        fake.userTapback({
          messageGuid: ref.messageId,
          from: ANN,
          reaction: imessageVocabulary.lookup(emoji) ?? emoji,
        });
      },
      foreignReactions: (ref) => fake.tapbacksBy(ref.messageId, ANN),
      close: () => fake.close(),
    };
  },
});
