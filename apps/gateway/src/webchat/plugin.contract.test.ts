import { describeChannelContract } from "@chorus/testkit/vitest";
import type { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";

const site = new WebchatSite({ botName: "Chorus" });
let adaId: string | undefined;

/** The running instance's hub (a new one after each restart, with what the store kept). */
function hub(): WebchatHub {
  if (!site.hub) throw new Error("the webchat instance is not running");
  return site.hub;
}

/** Ada, a person in the lobby: made once, found again after a restart. */
function ada(): string {
  const current = hub();
  if (adaId === undefined || !current.user(adaId)) {
    adaId = current.identify("Ada", adaId).id;
    current.join("lobby", adaId);
  }
  return adaId;
}

describeChannelContract("webchat: the whole channel contract", {
  plugin: createWebchatPlugin(site),
  async setup() {
    return {
      config: { botName: "Chorus" },
      conversation: { id: "lobby" },
      inProcess:
        "the webchat's platform is the hub its instance builds (its state in ctx.store); browsers reach it over the gateway's WebSocket (tested in socket.test.ts)",
      secrets: [],
      botReactions: (ref) => hub().botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        hub().react(ref.messageId, ada(), emoji, true);
      },
      foreignReactions: (ref) => hub().reactionsBy(ref.messageId, ada()),
      userSends: (text) => {
        hub().post("lobby", ada(), text);
      },
    };
  },
});
