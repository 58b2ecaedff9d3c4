import { closedPort, type InboundMediumSample } from "@chorus/testkit";
import { describeChannelContract } from "@chorus/testkit/vitest";
import { slackChannel } from "./index.js";
import { createFakeSlack } from "./testing/index.js";

// Canary secrets: the suite fails if any shows up in an error, status, event or log line.
const BOT_TOKEN = "xoxb-canary-7301-bot-token-5d1e83";
const APP_TOKEN = "xapp-1-canary-app-token-a94f02";
const SIGNING_SECRET = "canary-signing-secret-0c7be4d21f";
const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";

// The whole channel contract, once per transport: every reaction case the flags make relevant
// (against the reactions the fake Slack holds), restarts, inbound, faults, secrets and escapes.
for (const mode of ["http", "socket"] as const) {
  describeChannelContract(`Slack (${mode === "http" ? "Events API over HTTP" : "Socket Mode"}): the channel contract`, {
    plugin: slackChannel,
    stepTimeoutMs: 10_000,
    async setup() {
      // Slack retries what was not acknowledged at once, after 1 and after 5 minutes, and waits 3 s
      // for an ack; the fake does it sooner, so a refused commit comes back within the step.
      const fake = createFakeSlack({
        mode,
        botToken: BOT_TOKEN,
        appToken: APP_TOKEN,
        signingSecret: SIGNING_SECRET,
        retryDelaysMs: [0, 50, 200],
        answerWithinMs: 500,
      });
      await fake.start();
      fake.addUser({ id: ANN, name: "ann", real_name: "Ann Lee" });
      fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
      // Short timeouts and reconnect waits, so a platform that hangs or drops fails fast and recovers fast.
      const config = (apiUrl: string) =>
        fake.config({ apiUrl, retries: 1, timeoutMs: 500, reconnectMinMs: 50, reconnectMaxMs: 500 });
      const unreachable = `http://127.0.0.1:${await closedPort()}/api/`;
      // HTTP mode: the Request URL is pasted into the app config by hand; here it is the instance's route.
      const requestUrl = (hooksUrl: string) => {
        fake.http.requestUrl = `${hooksUrl}/hooks/slack/default/events`;
      };
      return {
        config: config(fake.apiUrl),
        conversation: { id: TEAM },
        secrets: [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET],
        unreachableConfig: () => config(unreachable),
        botReactions: (ref) => fake.botReactions(ref.conversationId, ref.messageId),
        addForeignReaction: (ref, emoji) => fake.userReacts(ref.conversationId, ref.messageId, ANN, nameOf(emoji)),
        foreignReactions: (ref) => fake.reactionsBy(ref.conversationId, ref.messageId, ANN),
        userSends: async (text, hooksUrl) => {
          requestUrl(hooksUrl);
          await fake.userSends({ channel: TEAM, user: ANN, text });
        },
        redeliverLast: async (hooksUrl) => {
          requestUrl(hooksUrl);
          await fake.redeliverLast();
        },
        deliverUnparseable: async (hooksUrl) => {
          requestUrl(hooksUrl);
          await fake.deliverUnparseable();
        },
        ...(mode === "http" && {
          forgeWebhook: (hooksUrl: string, text: string) => fake.forge(text, `${hooksUrl}/hooks/slack/default/events`),
        }),
        // Files: what the fake stores of the bot's uploads, and people sharing files as Slack delivers them.
        media: {
          sentMessage: (ref) => fake.media.messageMedia(fake.state.message(ref.conversationId, ref.messageId)),
          botMessageCount: () => fake.messagesIn(TEAM).filter((m) => m.user === fake.bot.id).length,
          userSendsMedium: async (sample, hooksUrl) => {
            requestUrl(hooksUrl);
            await fake.userSendsFiles({
              channel: TEAM,
              user: ANN,
              text: sample.caption ?? "",
              files: [fileOf(sample)],
            });
          },
          bytesServed: () => fake.media.bytesServed,
        },
        fault: (kind) => fake.fault(kind),
        heal: () => fake.heal(),
        close: () => fake.close(),
      };
    },
  });
}

/** A medium someone shares, as a Slack file: a voice note is an audio clip recorded in Slack. */
function fileOf(sample: InboundMediumSample) {
  return {
    name: sample.filename ?? `${sample.kind}.bin`,
    bytes: sample.bytes ?? new Uint8Array(),
    ...(sample.mime ? { mimetype: sample.mime } : {}),
    ...(sample.kind === "voice" ? { subtype: "slack_audio" as const } : {}),
  };
}

/** People on Slack react with names; the contract's emoji are unicode. */
function nameOf(emoji: string): string {
  return emoji === "👍" ? "thumbsup" : emoji === "❤️" ? "heart" : emoji;
}
