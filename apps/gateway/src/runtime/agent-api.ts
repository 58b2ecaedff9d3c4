import type { Logger } from "pino";
import type { PairingStore } from "../access/index.js";
import { type ChannelRegistry, ChannelWatch, type MessageToolCalls } from "../channels/index.js";
import { defaultMedia } from "../config/index.js";
import { EventFilter, EventHub, type OperatorEvents } from "../events/index.js";
import { lazyMcpEndpoint, type McpEndpoint, McpTools } from "../mcp/index.js";
import type { GatewayMedia } from "../media/index.js";
import { type MessageIndex, recentMessages, type StateStore } from "../state/index.js";
import { ExternalTurns } from "../turn/index.js";
import type { MediaUnderstanding } from "../understand/index.js";

export interface AgentApiOptions {
  registry: ChannelRegistry;
  state: StateStore;
  index: MessageIndex;
  pairing: PairingStore;
  /** Runs `message` calls; an outside agent's (MCP, the HTTP API) go through the external turns first. */
  tools: MessageToolCalls;
  /** How far back `Last-Event-ID` can resume (the inbox keeps handled rows this long). */
  retentionMs: number;
  /** Drops and refusals, for the operator's streams (`/v1/events?operator=1`). */
  operator?: OperatorEvents;
  /** The media store and its links (`get_media`). */
  media?: GatewayMedia | undefined;
  /** `media.maxExtractChars`: how much of a PDF's or text file's text `get_media` gives. */
  maxExtractChars?: number | undefined;
  /** The intake the turns use: events and `recent_messages` store attachments through it (their `mediaId`). */
  understanding?: MediaUnderstanding | undefined;
  logger: Logger;
}

/** What the gateway offers outside agents: the event stream (`/v1/events`) and the MCP server (`/mcp`). */
export interface AgentApi {
  /** The turns of outside agents (`provider: "external"`), answered by their calls. */
  external: ExternalTurns;
  watch: ChannelWatch;
  events: EventHub;
  mcp: McpEndpoint;
  close(): Promise<void>;
}

/** Sets up the event stream and the MCP endpoint; both follow the channels' states. */
export function createAgentApi(options: AgentApiOptions): AgentApi {
  const { registry, state, index, logger } = options;
  const external = new ExternalTurns(options.tools);
  const watch = new ChannelWatch(registry);
  const { media } = options;
  const filter = new EventFilter({ registry, pairing: options.pairing, index, media: options.understanding });
  const events = new EventHub({
    state,
    filter,
    watch,
    retentionMs: options.retentionMs,
    ...(options.operator ? { operator: options.operator } : {}),
  });
  const tools = new McpTools({
    registry,
    execute: (input) => external.execute(input),
    recent: (where, limit) => recentMessages(state.db, where, limit, (message) => filter.attachments(message)),
    mediaLinks: media?.links.enabled ?? false,
    ...(media
      ? {
          media: {
            store: media.store,
            links: media.links,
            maxBytes: media.settings.maxBytes,
            maxExtractChars: options.maxExtractChars ?? defaultMedia().maxExtractChars,
          },
        }
      : {}),
  });
  const mcp = lazyMcpEndpoint(tools, logger);
  // An account that went down or came back changes the tool list (its `message` tool is offered only while it runs).
  const offered = (all: { channel: string; account: string; up: boolean }[]) =>
    all
      .filter((s) => s.up)
      .map((s) => `${s.channel}:${s.account}`)
      .join(",");
  let lastOffered = offered(watch.states());
  watch.listen((_changed, all) => {
    const now = offered(all);
    if (now === lastOffered) return;
    lastOffered = now;
    mcp.toolsChanged();
  });
  watch.start();
  return {
    external,
    watch,
    events,
    mcp,
    close: async () => {
      watch.stop();
      events.close();
      await mcp.close();
    },
  };
}
