import { fileURLToPath } from "node:url";
import { createMemoryPlatform } from "@chorus/testkit";
import { createFakeOpenAI, fakeModelConfig } from "../../src/testing/index.js";
import { removeHome, startGatewayProcess } from "../../test/support/gateway-process.js";
import { noisyPng } from "../../test/support/media-files.js";

const MEMORY_CHANNEL = fileURLToPath(new URL("../../test/fixtures/memory-channel", import.meta.url));
const CHAT_PATH = "/v1/chat/completions";

/** How long after a person sent a message the model's request arrived, per turn, in ms. */
export interface FirstByteResult {
  textMs: number[];
  photoMs: number[];
  photoBytes: number;
}

/** Polls `check` every 2 ms until it gives a value, or throws after `timeoutMs`. */
async function until<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Time to the model's first byte of a photo turn and of a text turn: the memory platform, a gateway
 * whose agent's model (the fake OpenAI-compatible server) takes images, and `runs` turns of each
 * kind in one direct chat, interleaved (photo, text, text, photo, …) after one of each to warm up.
 * A turn's time runs from the person's message on the platform to the model request's arrival at
 * the fake (its recorded `at`); a photo turn's includes the photo's download into the media store
 * and its image part. Each turn is answered before the next is sent.
 */
export async function measureFirstModelByte(runs: number, photoSide: number): Promise<FirstByteResult> {
  const platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
  const model = await createFakeOpenAI({ apiKey: "sk-bench" });
  const gateway = await startGatewayProcess({
    config: {
      plugins: { load: [MEMORY_CHANNEL] },
      channels: {
        memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 5000, dmPolicy: "open" },
      },
      agents: {
        list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-bench", vision: true }) }],
      },
    },
  });
  const photo = noisyPng(photoSide);
  const result: FirstByteResult = { textMs: [], photoMs: [], photoBytes: photo.byteLength };
  try {
    const turn = async (kind: "text" | "photo") => {
      const asked = model.server.requestsTo("POST", CHAT_PATH).length;
      const replies = platform.botMessagesIn("dm-ann").length;
      const sentAt = Date.now();
      if (kind === "text") platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "what is new?" });
      else
        platform.userSendsMedium({
          conversationId: "dm-ann",
          senderId: "ann",
          kind: "image",
          bytes: photo,
          mime: "image/png",
          filename: "photo.png",
        });
      const request = await until(() => model.server.requestsTo("POST", CHAT_PATH)[asked], 20_000, "the model call");
      await until(() => (platform.botMessagesIn("dm-ann").length > replies ? true : undefined), 20_000, "the answer");
      if (kind === "photo" && model.images.filter((image) => image.request === asked).length !== 1)
        throw new Error("the photo did not reach the model as an image");
      return request.at - sentAt;
    };
    await turn("photo");
    await turn("text");
    for (let i = 0; i < runs; i++) {
      for (const kind of i % 2 === 0 ? (["photo", "text"] as const) : (["text", "photo"] as const)) {
        const ms = await turn(kind);
        (kind === "text" ? result.textMs : result.photoMs).push(ms);
      }
    }
    return result;
  } finally {
    await gateway.stop();
    await removeHome(gateway.home);
    await model.close();
    await platform.close();
  }
}
