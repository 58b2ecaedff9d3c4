import {
  ChorusError,
  isChorusError,
  type MessageToolInput,
  type MessageToolSuccess,
  resolveReactionLevel,
  z,
} from "@chorus/core";
import type { ChannelEntry, ChannelRegistry } from "../channels/index.js";
import type { RecentMessage } from "../state/index.js";
import { MessageToolDefinitions } from "../turn/index.js";
import { getMedia, type McpMediaOptions, mediaToolDefinition } from "./media-tool.js";
import type { McpTool, McpToolResult } from "./server.js";

export interface McpToolsOptions {
  registry: ChannelRegistry;
  /** Runs a `message` call for the channel account (the same executor as the HTTP API). */
  execute(input: MessageToolInput): Promise<MessageToolSuccess>;
  recent(where: { channel: string; account: string; conversation: string }, limit: number): Promise<RecentMessage[]>;
  /** The media store: `get_media` (none: the tool is not offered). */
  media?: McpMediaOptions | undefined;
  /** Whether the gateway can link to media (`gateway.publicUrl`): a link-only channel offers media only then. */
  mediaLinks?: boolean | undefined;
}

/** The most messages one `recent_messages` call returns. */
export const RECENT_MESSAGES_MAX = 50;

const recentInput = z
  .object({
    channel: z.string().min(1).max(64).describe("Channel id, as list_channels shows it."),
    account: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("Account of the channel (default: its only or default one)."),
    target: z.string().min(1).max(512).describe("Conversation id (from an event or an earlier message)."),
    limit: z.number().int().min(1).max(RECENT_MESSAGES_MAX).optional().describe("How many (default 20, at most 50)."),
  })
  .strict();

const emptyInput = z.object({}).strict();

/** The name of an account's `message` tool: `message_telegram`, `message_slack_work`. */
export function messageToolName(channel: string, account: string): string {
  const name = account === "default" ? `message_${channel}` : `message_${channel}_${account}`;
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/**
 * The MCP server's tools (DESIGN §6): one `message` tool per running channel account, with core's
 * schema and description for that channel's flags and `reactionLevel` (an agent path: it follows
 * the level, as the built-in agent does), `list_channels`, `recent_messages` (attachments with their
 * `mediaId`) and `get_media` (a medium as an image, audio, its text or a link).
 */
export class McpTools {
  readonly #definitions: MessageToolDefinitions;

  constructor(private readonly options: McpToolsOptions) {
    this.#definitions = new MessageToolDefinitions(options.mediaLinks ?? true);
  }

  list(): McpTool[] {
    const message = this.#up().map((entry) => {
      const definition = this.#definitionOf(entry);
      return {
        name: messageToolName(entry.plugin.id, entry.accountId),
        // Exactly what the built-in agent gets; how to route a call from outside a turn is in the server's instructions.
        description: definition.description,
        inputSchema: definition.jsonSchema as McpTool["inputSchema"],
      };
    });
    return [
      ...message,
      {
        name: "list_channels",
        description:
          "The configured channel accounts: id, account, status, the message tool of each and what it supports.",
        inputSchema: z.toJSONSchema(emptyInput) as McpTool["inputSchema"],
      },
      {
        name: "recent_messages",
        description:
          "The last messages of a conversation, oldest first, with ids usable as messageId in the message tools; a message's photos, voice notes and files are its attachments, each with the mediaId get_media shows.",
        inputSchema: z.toJSONSchema(recentInput) as McpTool["inputSchema"],
      },
      ...(this.options.media ? [mediaToolDefinition(this.options.media.maxExtractChars)] : []),
    ];
  }

  async call(name: string, args: unknown): Promise<McpToolResult> {
    try {
      if (name === "list_channels") {
        parseOrThrow(emptyInput, args ?? {});
        return ok({ ok: true, channels: this.#channels() });
      }
      if (name === "recent_messages") {
        const input = parseOrThrow(recentInput, args);
        const entry = this.options.registry.get(input.channel, input.account);
        const messages = await this.options.recent(
          { channel: entry.plugin.id, account: entry.accountId, conversation: input.target },
          input.limit ?? 20,
        );
        return ok({ ok: true, channel: entry.plugin.id, account: entry.accountId, target: input.target, messages });
      }
      if (name === "get_media" && this.options.media) return await getMedia(args, this.options.media);
      const entry = this.options.registry.all().find((e) => messageToolName(e.plugin.id, e.accountId) === name);
      if (!entry) throw new ChorusError("E_INVALID_INPUT", `no tool ${name}; tools/list shows the tools there are`);
      const call = this.#definitionOf(entry).parse(args ?? {});
      for (const key of ["channel", "account"] as const) {
        const fixed = key === "channel" ? entry.plugin.id : entry.accountId;
        if (call[key] !== undefined && call[key] !== fixed)
          throw new ChorusError("E_INVALID_INPUT", `${name} is for ${key} ${fixed}; use the tool of ${call[key]}`);
      }
      const result = await this.options.execute({ ...call, channel: entry.plugin.id, account: entry.accountId });
      return ok(result as unknown as Record<string, unknown>);
    } catch (error) {
      const typed = isChorusError(error) ? error : new ChorusError("E_PLATFORM", "internal error");
      const body = { ok: false, error: typed.toJSON() };
      return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
    }
  }

  #up(): ChannelEntry[] {
    return this.options.registry.all().filter((e) => e.supervisor.instance !== undefined);
  }

  #definitionOf(entry: ChannelEntry) {
    return this.#definitions.for(entry, resolveReactionLevel(entry.settings.reactionLevel));
  }

  #channels() {
    return this.options.registry.all().map((entry) => {
      const status = entry.supervisor.status();
      const up = entry.supervisor.instance !== undefined;
      const definition = this.#definitionOf(entry);
      return {
        id: entry.plugin.id,
        account: entry.accountId,
        label: entry.plugin.label,
        status: {
          state: status.state,
          ...(status.detail ? { detail: status.detail } : {}),
          ...(status.fix ? { fix: status.fix } : {}),
        },
        tool: up ? messageToolName(entry.plugin.id, entry.accountId) : null,
        reactionLevel: resolveReactionLevel(entry.settings.reactionLevel),
        actions: definition.actions,
        reactions: entry.capabilities.reactions,
      };
    });
  }
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  throw new ChorusError("E_INVALID_INPUT", `invalid arguments: ${problems}`);
}

function ok(body: Record<string, unknown>): McpToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}
