import type { Redactor } from "@chorus/channel-kit";
import { Client, GatewayIntentBits, Partials, type RequestData, type RouteLike } from "discord.js";
import type { DiscordConfig } from "./config.js";
import { toDiscordError } from "./errors.js";
import { ShardGuard } from "./shards.js";
import { uploadRequest } from "./upload-request.js";
import { MessageUpload } from "./uploads.js";

/** The gateway intents the channel needs; MESSAGE_CONTENT (privileged) only when configured. */
export function discordIntents(config: Pick<DiscordConfig, "messageContent">): GatewayIntentBits[] {
  return [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.GuildMessageReactions,
    GatewayIntentBits.DirectMessages,
    GatewayIntentBits.DirectMessageReactions,
    ...(config.messageContent ? [GatewayIntentBits.MessageContent] : []),
  ];
}

/**
 * A discord.js Client whose REST root is `apiRoot`; the gateway URL then comes from
 * `GET /gateway/bot`, so REST and WebSocket both reach the configured server. Partials let
 * reactions on messages, channels and users that are not cached arrive. `shards.retire()` before
 * `client.destroy()` makes sure nothing of it connects again.
 */
export function createDiscordClient(
  config: Omit<DiscordConfig, "reconnectMinMs" | "reconnectMaxMs" | "readyTimeoutMs" | "token" | "guilds">,
  shards: ShardGuard = new ShardGuard(),
): Client {
  return new Client({
    intents: discordIntents(config),
    partials: [Partials.Message, Partials.Reaction, Partials.User, Partials.Channel, Partials.GuildMember],
    rest: {
      api: config.apiRoot,
      // Sticker URLs (`Sticker#url`) are built on these: PNG, APNG and Lottie on the CDN, GIF on the media proxy.
      cdn: config.cdnUrl,
      mediaProxy: config.mediaProxyUrl,
      retries: config.retries,
      timeout: config.timeoutMs,
      // 429s shorter than maxRetryAfterMs are sat out by discord.js' queue; longer ones fail at once.
      rejectOnRateLimit: (info) => info.retryAfter > config.maxRetryAfterMs,
      // Uploads are streamed from their media; every other request goes discord.js' own way.
      makeRequest: uploadRequest,
    },
    allowedMentions: { parse: ["users"], repliedUser: true },
    ws: { buildStrategy: (manager) => shards.build(manager) },
  });
}

type Method = "get" | "post" | "put" | "delete";

/** REST calls through the Client's queue (rate limits, retries), with errors as ChorusErrors without secrets. */
export class DiscordRest {
  constructor(
    private readonly client: () => Client,
    private readonly redactor: Redactor,
  ) {}

  /** Calls one route; `what` names it in errors (`send`, `react`). */
  async call<T>(method: Method, route: RouteLike, what: string, options: RequestData = {}): Promise<T> {
    try {
      return (await this.client().rest[method](route, options)) as T;
    } catch (error) {
      throw this.redactor.error(toDiscordError(withoutFileBytes(error), what));
    }
  }
}

/**
 * discord.js keeps the request on its errors (`requestBody.json`): an upload there is replaced by
 * its JSON body and its files' names, types and sizes, so an error holds no handle on the media
 * and nothing of them is scanned for secrets and logged.
 */
function withoutFileBytes(error: unknown): unknown {
  const body = (error as { requestBody?: { files?: unknown; json?: unknown } } | null)?.requestBody;
  if (body?.json instanceof MessageUpload) {
    body.files = body.json.files;
    body.json = body.json.payload;
  }
  return error;
}
