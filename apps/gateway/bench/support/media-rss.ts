import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createMemoryPlatform, type MemoryPlatform } from "@chorus/testkit";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../../test/support/gateway-process.js";
import { restingRss, sampleRss } from "./rss-sampler.js";

const MB = 1024 * 1024;
const PLUGIN = fileURLToPath(new URL("./large-media-channel", import.meta.url));
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Node flags that make the gateway collect its garbage every 50 ms and print, after each collection,
 * the bytes of the ArrayBuffers still alive (`process.memoryUsage().arrayBuffers`: every stream
 * chunk is one) on a `bench-buffers <bytes>` line of stderr.
 */
const TRACK_BUFFERS = [
  "--expose-gc",
  "--import",
  `data:text/javascript,${encodeURIComponent(
    'setInterval(() => { globalThis.gc(); process.stderr.write("bench-buffers " + process.memoryUsage().arrayBuffers + "\\n"); }, 50).unref();',
  )}`,
];

/** The `bench-buffers` reads in a piece of the gateway's output. */
function bufferReads(output: string): number[] {
  return [...output.matchAll(/^bench-buffers (\d+)$/gm)].map((match) => Number(match[1]));
}

/** What one step of a medium's way cost: its time, the highest RSS, and the most live ArrayBuffers (when tracked). */
export interface StepCost {
  ms: number;
  peakRssBytes: number;
  peakBuffersBytes?: number;
}

/** What one medium's way in, out and in again cost the gateway process. */
export interface MediaRssResult {
  /** RSS at rest after the start, before any medium. */
  coldIdleBytes: number;
  /** RSS at rest after the same way with a 64 KB medium (the code media load on first use is loaded). */
  idleBytes: number;
  /** RSS at rest after the large medium's way. */
  afterBytes: number;
  upload: StepCost;
  send: StepCost;
  receive: StepCost;
  /** The highest RSS read during the way. */
  peakBytes: number;
  /** When tracked: live ArrayBuffers at rest before the way, and their most during it. */
  idleBuffersBytes?: number;
  peakBuffersBytes?: number;
}

/** Polls `check` every 20 ms until it holds, or throws after `timeoutMs`. */
async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs one step while reading the gateway's RSS every 5 ms (and its buffer reads, when tracked). */
async function step(gateway: GatewayProcess, run: () => Promise<void>): Promise<StepCost> {
  const from = gateway.output().length;
  const sampler = sampleRss(gateway.process.pid as number);
  const at = performance.now();
  await run();
  const ms = performance.now() - at;
  const { peakBytes } = await sampler.stop();
  const buffers = bufferReads(gateway.output().slice(from));
  return { ms, peakRssBytes: peakBytes, ...(buffers.length > 0 ? { peakBuffersBytes: Math.max(...buffers) } : {}) };
}

/**
 * One medium of `size` bytes through the gateway: uploaded with `POST /v1/media`, sent to the
 * memory platform with `POST /v1/tools/message` (its upload streamed from the store), then a person's
 * attachment of the same size downloaded through the channel into the store by intake (the demo
 * agent answers what it got). Checks the platform got every byte and served every byte.
 */
async function mediumWay(gateway: GatewayProcess, platform: MemoryPlatform, size: number) {
  const out = new Uint8Array(randomBytes(size));
  let mediaId = "";
  const upload = await step(gateway, async () => {
    const answer = await fetch(`${gateway.url}/v1/media?filename=out.bin`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.token}` },
      body: Buffer.from(out),
    });
    if (answer.status !== 200) throw new Error(`POST /v1/media answered ${answer.status}`);
    mediaId = ((await answer.json()) as { mediaId: string }).mediaId;
  });

  let messageId = "";
  const send = await step(gateway, async () => {
    const sent = await gateway.call("POST", "/v1/tools/message", {
      channel: "largemedia",
      target: "dm-ann",
      action: "send",
      media: [{ mediaId }],
    });
    if (sent.status !== 200) throw new Error(`the send answered ${sent.status}: ${JSON.stringify(sent.json)}`);
    messageId = sent.json.result.messageId as string;
  });
  const held = platform.messageMedia(messageId).media[0]?.bytes;
  if (!held || sha(held) !== sha(out)) throw new Error("the platform does not hold the bytes sent");

  const replies = platform.botMessagesIn("dm-ann").length;
  const served = platform.bytesServed;
  const incoming = new Uint8Array(randomBytes(size));
  const receive = await step(gateway, async () => {
    platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "file",
      bytes: incoming,
      mime: "application/octet-stream",
      filename: "in.bin",
    });
    await until(() => platform.botMessagesIn("dm-ann").length > replies, 120_000, "the answer to the attachment");
  });
  if (platform.bytesServed - served !== size) throw new Error("the attachment was not downloaded whole");
  return { upload, send, receive };
}

/**
 * The gateway's RSS while `size` bytes go in and out (DESIGN §2.6: media are streamed, never held
 * whole): a gateway with the large-media memory channel and the demo agent, at rest, then warmed
 * with a 64 KB medium, then the large one, its RSS read every 5 ms meanwhile. `trackBuffers`: the
 * gateway collects its garbage every 50 ms and says how many bytes of ArrayBuffers are alive.
 */
export async function measureMediaRss(size: number, options: { trackBuffers?: boolean } = {}): Promise<MediaRssResult> {
  const platform = createMemoryPlatform({ rules: { maxUploadBytes: 64 * MB } });
  await platform.start();
  platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
  const gateway = await startGatewayProcess({
    nodeArgs: options.trackBuffers ? TRACK_BUFFERS : [],
    config: {
      plugins: { load: [PLUGIN] },
      channels: {
        largemedia: {
          baseUrl: platform.url,
          token: platform.token,
          pollWaitMs: 2000,
          timeoutMs: 120_000,
          dmPolicy: "open",
        },
      },
      media: { maxBytes: 64 * MB },
    },
  });
  try {
    const pid = gateway.process.pid as number;
    await until(
      async () => {
        const { json } = await gateway.call("GET", "/v1/channels");
        const channel = (json.channels as { id: string; status: { state: string } }[]).find(
          (c) => c.id === "largemedia",
        );
        return channel?.status.state === "running";
      },
      20_000,
      "the channel running",
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const coldIdleBytes = await restingRss(pid);
    await mediumWay(gateway, platform, 64 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const restFrom = gateway.output().length;
    const idleBytes = await restingRss(pid);
    const idleBuffers = bufferReads(gateway.output().slice(restFrom)).sort((a, b) => a - b);
    const way = await mediumWay(gateway, platform, size);
    const afterBytes = await restingRss(pid);
    const peaks = [way.upload, way.send, way.receive].map((s) => s.peakBuffersBytes ?? 0);
    return {
      coldIdleBytes,
      idleBytes,
      afterBytes,
      ...way,
      peakBytes: Math.max(way.upload.peakRssBytes, way.send.peakRssBytes, way.receive.peakRssBytes),
      ...(idleBuffers.length > 0
        ? {
            idleBuffersBytes: idleBuffers[Math.floor(idleBuffers.length / 2)] as number,
            peakBuffersBytes: Math.max(...peaks),
          }
        : {}),
    };
  } finally {
    await gateway.stop();
    await removeHome(gateway.home);
    await platform.close();
  }
}
