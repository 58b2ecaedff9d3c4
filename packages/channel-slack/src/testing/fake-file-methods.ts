import type { FakeFileHosts } from "./fake-file-hosts.js";
import type { FakeFile, FakeFileStore } from "./fake-files.js";
import type { FakeMessage, FakeSlackState } from "./fake-state.js";
import { type Args, type FakeBot, type Method, no, ok } from "./fake-web-api.js";

/** The workspace's file settings, as a test sets them. */
export interface FakeFileSettings {
  /** The bot token's scopes; `missing_scope` names the one a method needs. */
  scopes: Set<string>;
  /** An admin turned uploads off: `file_uploads_disabled`. */
  uploadsDisabled: boolean;
  /** The workspace's limit for one file (Slack's own: 1 GB): `file_upload_size_restricted` above it. */
  uploadLimitBytes: number;
  /** How long after `files.completeUploadExternal` the file's `shares` name the message; `Infinity`: never. */
  shareDelayMs: number;
}

/** What the files methods need of the rest of the fake. */
export interface FileMethodsContext {
  readonly state: FakeSlackState;
  readonly bot: FakeBot;
  readonly team: { id: string };
  readonly store: FakeFileStore;
  readonly hosts: FakeFileHosts;
  readonly settings: FakeFileSettings;
  /** The bot shared files in a message: Slack tells the app like about anyone's. */
  onMessage(message: FakeMessage): void;
}

/**
 * `files.getUploadURLExternal`, `files.completeUploadExternal` and `files.info` as Slack answers
 * them (method docs; errors from their error tables): announcing a file needs `files:write`,
 * reading one `files:read`; completing shares every file of the call in one message whose text is
 * `initial_comment`, in the thread of `thread_ts`, and "can only be called once". Its answer lists
 * the files without their shares: the fake, like Slack, adds the share to the file object later
 * (`shareDelayMs`; python-slack-sdk#1277).
 */
export function fileMethods(ctx: FileMethodsContext): Record<string, Method> {
  const { settings, store } = ctx;
  const needs = (scope: string) =>
    settings.scopes.has(scope)
      ? undefined
      : no("missing_scope", { needed: scope, provided: [...settings.scopes].sort().join(",") });
  return {
    "files.getUploadURLExternal": (args) => {
      const refused = needs("files:write");
      if (refused) return refused;
      if (settings.uploadsDisabled) return no("file_uploads_disabled");
      const length = Number(args.length ?? 0);
      if (!args.filename) return no("invalid_arguments");
      if (!(Number.isSafeInteger(length) && length > 0)) return no("missing_argument");
      if (length > settings.uploadLimitBytes) return no("file_upload_size_restricted");
      const file = store.add({ name: args.filename, user: ctx.bot.id, uploaded: false, declaredLength: length });
      return ok({ upload_url: ctx.hosts.uploadUrl(file), file_id: file.id });
    },
    "files.completeUploadExternal": (args) => {
      const refused = needs("files:write");
      if (refused) return refused;
      const files = filesOf(args, store);
      if (files === undefined) return no("invalid_arguments");
      if (files.some((file) => file === undefined || !file.uploaded || file.completed)) return no("file_not_found");
      const done = files as FakeFile[];
      const channel = args.channel_id;
      if (channel !== undefined) {
        const conversation = ctx.state.conversations.get(channel);
        if (!conversation) return no("invalid_channel");
        if (!conversation.members.includes(ctx.bot.id)) return no("posting_to_channel_denied");
      }
      for (const file of done) file.completed = true;
      if (channel !== undefined) share(ctx, done, channel, args);
      return ok({ files: done.map((file) => ({ ...store.object(file), shares: {} })) });
    },
    "files.info": (args) => {
      const refused = needs("files:read");
      if (refused) return refused;
      const file = store.get(args.file ?? "");
      if (!file?.completed) return no("file_not_found");
      if (file.mode === "tombstone") return no("file_deleted");
      return ok({ file: store.object(file, true), comments: [], response_metadata: { next_cursor: "" } });
    },
  };
}

/** The message that shares `files`, posted now; the files' `shares` follow after `shareDelayMs`. */
function share(ctx: FileMethodsContext, files: FakeFile[], channel: string, args: Args): void {
  const { bot, state, store, settings } = ctx;
  const thread = args.thread_ts;
  const message = state.post({
    channel,
    user: bot.id,
    bot_id: bot.bot_id,
    app_id: bot.app_id,
    text: args.initial_comment ?? "",
    subtype: "file_share",
    upload: true,
    files: files.map((file) => store.object(file)),
    ...(thread ? { thread_ts: thread } : {}),
  });
  ctx.onMessage(message);
  if (!Number.isFinite(settings.shareDelayMs)) return;
  const conversation = state.conversations.get(channel);
  const where = conversation?.type === "channel" ? "public" : "private";
  const entry = {
    ts: message.ts,
    ...(thread ? { thread_ts: thread } : {}),
    ...(conversation?.name ? { channel_name: conversation.name } : {}),
    team_id: ctx.team.id,
  };
  const record = () => {
    for (const file of files) file.shares[where][channel] = [...(file.shares[where][channel] ?? []), entry];
  };
  if (settings.shareDelayMs <= 0) record();
  else setTimeout(record, settings.shareDelayMs).unref();
}

/** `files`: a JSON array of `{ id, title? }`; undefined when it is not one. */
function filesOf(args: Args, store: FakeFileStore): (FakeFile | undefined)[] | undefined {
  try {
    const list = JSON.parse(args.files ?? "") as unknown;
    if (!Array.isArray(list) || list.length === 0) return undefined;
    return list.map((entry) => store.get(String((entry as { id?: unknown }).id ?? "")));
  } catch {
    return undefined;
  }
}
