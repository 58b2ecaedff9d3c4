import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectBytes } from "@chorus/channel-kit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { afterAll } from "vitest";
import type { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { testMediaStore, uploadOverHttp } from "./support.test.util.js";
import { BOT_ID } from "./types.js";

const site = new WebchatSite({ botName: "Chorus" });
/** The token the webchat's routes admit (the socket's, in the gateway). */
const TOKEN = "contract-webchat-token-0123456789";
/** The instance's state dir (uploads under way are staged there). */
const stateDir = mkdtempSync(join(tmpdir(), "chorus-webchat-contract-"));
/** The gateway's media store, where the webchat keeps its media. */
const opened = await testMediaStore();
afterAll(() => opened.close());
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
  plugin: createWebchatPlugin(site, { media: opened.store }),
  stateDir,
  async setup() {
    site.useToken(TOKEN);
    return {
      config: { botName: "Chorus" },
      conversation: { id: "lobby" },
      inProcess:
        "the webchat's platform is the hub its instance builds (its state in ctx.store); browsers reach it over the gateway's WebSocket (tested in socket.test.ts)",
      secrets: [TOKEN],
      botReactions: (ref) => hub().botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => {
        hub().react(ref.messageId, ada(), emoji, true);
      },
      foreignReactions: (ref) => hub().reactionsBy(ref.messageId, ada()),
      userSends: (text) => {
        hub().post("lobby", ada(), text);
      },
      // Its routes (uploads, media) take the socket's token: a request with another one is refused.
      async forgeWebhook(hooksUrl, text) {
        const bytes = new TextEncoder().encode(text);
        const answer = await uploadOverHttp(hooksUrl, "forged-token-0123456789", { bytes, filename: "forged.txt" });
        return answer.status;
      },
      // An upload description that is not JSON: answered 400 and logged.
      async deliverUnparseable(hooksUrl) {
        await fetch(`${hooksUrl}/hooks/webchat/upload`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body: "{not json",
        });
      },
      media: {
        async sentMessage(ref) {
          const message = hub().message(ref.messageId);
          if (!message) throw new Error(`the hub keeps no message ${ref.messageId}`);
          const media = await Promise.all(
            (message.attachments ?? []).map(async (medium) => ({
              kind: medium.kind,
              bytes: await collectBytes(
                (await opened.store.open(hub().medium(medium.id)?.mediaId ?? "")).stream,
                30 * 1024 * 1024,
                "test",
              ),
              filename: medium.filename,
            })),
          );
          return { media, text: message.text, ...(message.location ? { location: message.location } : {}) };
        },
        botMessageCount: () =>
          hub()
            .messagesIn("lobby")
            .filter((message) => message.sender.id === BOT_ID).length,
        async userSendsMedium(sample, hooksUrl) {
          const from = ada();
          if (sample.location) {
            hub().post("lobby", from, sample.caption ?? "", { location: sample.location });
            return;
          }
          const bytes = sample.bytes ?? new Uint8Array();
          const filename = sample.filename ?? `${sample.kind}.bin`;
          const upload = { bytes, filename, kind: sample.kind, ...(sample.mime ? { mime: sample.mime } : {}) };
          const answer = await uploadOverHttp(hooksUrl, TOKEN, upload);
          if (!answer.ok) throw new Error(`the upload was refused: ${answer.status} ${answer.error.message}`);
          const media = hub().uploads?.claim([answer.id]) ?? [];
          hub().post("lobby", from, sample.caption ?? "", { media });
        },
        bytesServed: () => hub().uploads?.media.bytesRead ?? 0,
      },
    };
  },
});
