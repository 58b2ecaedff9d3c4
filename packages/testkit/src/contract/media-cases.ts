import { randomUUID } from "node:crypto";
import {
  type ChannelPlugin,
  fallbackChain,
  formatBytes,
  type MediaCapabilities,
  mediaCapabilityProblems,
  mediaOf,
  sendLimitOf,
  type UploadKind,
} from "@chorus/core";
import type { ContractCase } from "./cases.js";
import type { ChannelHarness } from "./harness.js";
import { receiveCasesFor } from "./media-receive-cases.js";
import {
  aKind,
  botMessages,
  bytesDiffer,
  declared,
  generatedMedium,
  type SuiteMedium,
  sampleToSend,
  sendPlanned,
  shownOnPlatform,
  uploadKinds,
} from "./media-support.js";
import { check, expectRefusal } from "./violation.js";

/** Upload kinds, longest fallback chain first: the fallback case tries the most telling kind it can. */
const FALLBACK_ORDER: readonly UploadKind[] = ["voice", "sticker", "audio", "video", "image", "file"];
const hasBytes = (kind: string) => kind !== "location" && kind !== "contact";
const unique = (what: string) => `contract ${what} ${randomUUID().slice(0, 8)}`;

/**
 * The media cases (DESIGN §2.6, §8) that concern a plugin, by its declared `capabilities.media`:
 * one per kind it sends and receives, the fallbacks and limits its flags imply, and downloads that
 * stop at their cap. A plugin that declares no media gets one case: it has no `download` either.
 */
export function mediaCasesFor(plugin: ChannelPlugin<unknown>): ContractCase<ChannelHarness>[] {
  const media = mediaOf(plugin.capabilities);
  if (media.send.length === 0 && media.receive.length === 0) return [NO_MEDIA_CASE];
  return [
    WELL_FORMED_CASE,
    ...uploadKinds(media).map(sendCase),
    ...(media.send.includes("location") && !media.linkOnly ? [LOCATION_CASE] : []),
    ...fallbackCases(media),
    ...limitCases(media),
    ...receiveCasesFor(media),
  ];
}

const always = () => true;

const NO_MEDIA_CASE: ContractCase<ChannelHarness> = {
  name: "media: a channel that declares no media has no download",
  applies: always,
  async run(h) {
    const problems = h.plugin.capabilities.media ? mediaCapabilityProblems(h.plugin.capabilities.media) : [];
    check(problems.length === 0, problems.join("; "));
    check(
      h.instance.download === undefined,
      "capabilities.media declares nothing received, but the instance has download: declare the kinds it receives in media.receive, or drop download",
    );
  },
};

const WELL_FORMED_CASE: ContractCase<ChannelHarness> = {
  name: "media: the declared media capabilities are well-formed, with download where media.receive has kinds with bytes",
  applies: always,
  async run(h) {
    const media = declared(h);
    const problems = mediaCapabilityProblems(media);
    check(problems.length === 0, problems.join("; "));
    const withBytes = media.receive.filter(hasBytes);
    check(
      withBytes.length === 0 || typeof h.instance.download === "function",
      `media.receive lists ${withBytes.join(", ")}, but the instance has no download: the gateway could never fetch them`,
    );
  },
};

/** Sends `medium` alone with a caption, planned by core; checks the platform shows it as `expected`. */
async function sendsAs(h: ChannelHarness, medium: SuiteMedium, expected: UploadKind, promise: string): Promise<void> {
  const caption = unique(`caption of ${medium.kind}`);
  const { plan, parts } = await sendPlanned(h, { text: caption, media: [medium] });
  check(plan.sentAs[0] === expected, `${promise}: core planned it as ${plan.sentAs[0]}, not ${expected}`);
  const part = parts.find((p) => p.planned.media.length > 0);
  check(part !== undefined, `${promise}: core planned no message carrying it`);
  const shown = await shownOnPlatform(h, part.ref);
  const kinds = shown.media.map(
    (m) => `${aKind(m.kind)} (${JSON.stringify(m.filename ?? "")}, ${m.bytes.byteLength} bytes)`,
  );
  check(
    shown.media.length === 1,
    `${promise}: the platform should show one medium on the message, it shows ${kinds.length === 0 ? "none" : kinds.join(", ")}`,
  );
  const [onPlatform] = shown.media;
  if (!onPlatform) return;
  check(onPlatform.kind === expected, `${promise}: the platform should show it as ${expected}, it shows ${kinds[0]}`);
  const sample = await new Response(medium.open()).arrayBuffer();
  const differs = bytesDiffer(onPlatform.bytes, new Uint8Array(sample));
  check(
    differs === undefined,
    `${promise}: the platform should hold its ${medium.size} bytes unchanged, it holds ${differs}`,
  );
  const carried = part.planned.media[0]?.caption;
  if (carried !== undefined) {
    const shownCaption = onPlatform.caption ?? shown.text;
    check(
      shownCaption === carried,
      `${promise} with its caption (media.caption is true): the platform should show the caption ${JSON.stringify(carried)}, it shows ${shownCaption === undefined ? "none" : JSON.stringify(shownCaption)}`,
    );
  }
}

function sendCase(kind: UploadKind): ContractCase<ChannelHarness> {
  return {
    name: `media: ${aKind(kind)} sent arrives as ${kind}, byte for byte`,
    applies: always,
    run: (h) => sendsAs(h, sampleToSend(kind), kind, `media.send lists ${kind}: ${aKind(kind)} sent`),
  };
}

const LOCATION_CASE: ContractCase<ChannelHarness> = {
  name: "media: a location sent arrives as a pin with the same coordinates",
  applies: always,
  async run(h) {
    const location = { latitude: 52.520008, longitude: 13.404954, name: "Alexanderplatz" };
    const { parts } = await sendPlanned(h, { media: [], location });
    const part = parts.find((p) => p.planned.location !== undefined);
    check(part !== undefined, "media.send lists location, but core planned no pin");
    const shown = await shownOnPlatform(h, part.ref);
    const at = shown.location;
    check(
      at !== undefined &&
        Math.abs(at.latitude - location.latitude) < 1e-6 &&
        Math.abs(at.longitude - location.longitude) < 1e-6,
      `media.send lists location: a pin at ${location.latitude}, ${location.longitude} should arrive as a pin there, the platform shows ${at ? `a pin at ${at.latitude}, ${at.longitude}` : `no pin (text ${JSON.stringify(shown.text ?? "")})`}`,
    );
  },
};

/** Rule 3: a kind the channel lacks, sent as the first kind it falls back to; or refused where none is left. */
function fallbackCases(media: MediaCapabilities): ContractCase<ChannelHarness>[] {
  const sends = uploadKinds(media);
  const lacking = FALLBACK_ORDER.filter((kind) => !sends.includes(kind));
  const usable = (kind: UploadKind) => fallbackChain(kind).find((k) => sends.includes(k as UploadKind));
  const cases: ContractCase<ChannelHarness>[] = [];
  const fallsBack = lacking.find((kind) => usable(kind) !== undefined);
  if (fallsBack) {
    const as = usable(fallsBack) as UploadKind;
    cases.push({
      name: `media: ${aKind(fallsBack)}, which the channel cannot send, falls back to ${as} (rule 3), byte for byte`,
      applies: always,
      run: (h) =>
        sendsAs(
          h,
          sampleToSend(fallsBack),
          as,
          `media.send lacks ${fallsBack} but lists ${as}, so ${aKind(fallsBack)} goes out as ${as}`,
        ),
    });
  }
  return cases;
}

/** The plugin's own refusal of a medium over the limit handed to it directly (rule 4 itself is core's plan, tested there). */
function limitCases(media: MediaCapabilities): ContractCase<ChannelHarness>[] {
  const sends = uploadKinds(media);
  if (sends.length === 0) return [];
  // Directly: the kind with the smallest limit of its own, so a plugin that uploads before it checks costs least.
  const own = (k: UploadKind) => Math.min(sendLimitOf(media, k), media.maxMessageBytes ?? Number.POSITIVE_INFINITY);
  const direct = [...sends].sort((a, b) => own(a) - own(b))[0] as UploadKind;
  return [
    /*
     * Required, though the gateway plans every send: `send` is the plugin's public contract (other
     * hosts, tests and a future gateway call it), a declared limit the platform does not keep is a
     * lie the plan cannot see, and a medium the plugin cut short or that the platform refused
     * without a typed error would be lost silently. The check costs the plugin one comparison
     * (the kit's `tooLarge`) before it opens the stream; the medium is generated as it is read.
     */
    {
      name: `media: send refuses ${aKind(direct)} over the limit handed to it directly (E_TOO_LARGE) and sends nothing`,
      applies: always,
      async run(h) {
        const limit = own(direct);
        const before = await botMessages(h);
        const medium = generatedMedium(direct, limit + 1);
        await expectRefusal(
          () =>
            h.within(
              "sending an over-limit medium",
              h.record(h.instance.send(h.fixture.conversation, { text: "", media: [medium] })),
            ),
          "E_TOO_LARGE",
          `media.maxSendBytes says ${direct} goes up to ${formatBytes(limit)}: send with ${aKind(direct)} of ${limit + 1} bytes`,
        );
        const after = await botMessages(h);
        check(
          after === before,
          `an over-limit medium must not be sent, not even cut short: the bot had ${before} messages, it now has ${after}`,
        );
      },
    },
  ];
}
