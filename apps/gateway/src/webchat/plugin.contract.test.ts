import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { afterAll } from "vitest";
import { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";

const stateDir = mkdtempSync(join(tmpdir(), "chorus-webchat-contract-"));
const hub = new WebchatHub({ stateDir });
const human = hub.identify("Ada");
hub.join("lobby", human.id);

afterAll(async () => {
  await hub.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describeChannelContract("webchat: the whole channel contract", {
  plugin: createWebchatPlugin(hub),
  stateDir,
  async setup() {
    return {
      config: { botName: "Chorus" },
      conversation: { id: "lobby" },
      inProcess:
        "the webchat's platform is the gateway's own hub; browsers reach it over the gateway's WebSocket (tested in socket.test.ts)",
      secrets: [],
      botReactions: (ref) => hub.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        hub.react(ref.messageId, human.id, emoji, true);
      },
      foreignReactions: (ref) => hub.reactionsBy(ref.messageId, human.id),
      userSends: (text) => {
        hub.post("lobby", human.id, text);
      },
    };
  },
});
