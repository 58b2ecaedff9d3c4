import { ChorusError, type Logger, type OutboundMedium } from "@chorus/core";
import type { SlackApi } from "./api.js";
import { SLACK_MAX_FILES } from "./media.js";
import { sharedAt } from "./share.js";
import { checkFileSize, requestUpload, type UploadOptions, uploadBytes } from "./upload.js";

/** Where the files go, and the text that introduces them. */
export interface FilesTarget {
  readonly channel: string;
  /** The thread's parent `ts` ("Never use a reply's ts value; use its parent instead"). */
  readonly thread?: string | undefined;
  /** `initial_comment`: "The message text introducing the file in specified channels" (the caption). */
  readonly comment?: string | undefined;
  /** Runs once every file is uploaded, right before they are shared (a caption too long to be one, sent as text). */
  readonly beforeShare?: (() => Promise<void>) | undefined;
}

/** What sending files needs of the account, besides the API. */
export interface FilesSendOptions extends UploadOptions {
  readonly shareTimeoutMs: number;
  readonly logger: Logger;
}

/** What Slack made: the files, and the message that shares them where Slack said which. */
export interface SentFiles {
  readonly fileIds: readonly string[];
  readonly ts?: string;
}

/**
 * Several files as one Slack message, through the external upload flow (files.upload is retired):
 * every file is announced first (`files.getUploadURLExternal`: refusals such as
 * `file_uploads_disabled` come before any byte), then every file's bytes are uploaded, then one
 * `files.completeUploadExternal` shares them all into the conversation (`channel_id`, `thread_ts`)
 * with the caption as `initial_comment`. Nothing is visible in Slack until that last call, which is
 * not repeated after a failure that may have reached Slack. Then the message's `ts` is looked up
 * (`share.ts`); a lookup that fails does not fail the send, the files are out.
 */
export async function sendFiles(
  api: SlackApi,
  target: FilesTarget,
  media: readonly OutboundMedium[],
  options: FilesSendOptions,
): Promise<SentFiles> {
  if (media.length === 0 || media.length > SLACK_MAX_FILES) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `A Slack message carries 1 to ${SLACK_MAX_FILES} files, not ${media.length}.`,
    );
  }
  for (const medium of media) checkFileSize(medium);
  const tickets = [];
  for (const medium of media) tickets.push(await requestUpload(api, medium));
  for (const ticket of tickets) await uploadBytes(ticket, options);
  await target.beforeShare?.();
  const files = tickets.map((ticket) => ({ id: ticket.fileId, title: ticket.medium.filename }));
  await api.call(
    "files.completeUploadExternal",
    (web) =>
      web.files.completeUploadExternal({
        files,
        channel_id: target.channel,
        ...(target.thread ? { thread_ts: target.thread } : {}),
        ...(target.comment ? { initial_comment: target.comment } : {}),
      } as Parameters<typeof web.files.completeUploadExternal>[0]),
    { idempotent: false },
  );
  const fileIds = tickets.map((ticket) => ticket.fileId);
  const first = fileIds[0] as string;
  let ts: string | undefined;
  let reason = `no share within ${options.shareTimeoutMs} ms`;
  try {
    ts = await sharedAt(api, first, target.channel, options.shareTimeoutMs, options.signal);
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  if (ts !== undefined) return { fileIds, ts };
  options.logger.warn(
    { fileId: first, reason },
    "slack: files were shared, but Slack did not say under which message; the message is known by its first file's id",
  );
  return { fileIds };
}
