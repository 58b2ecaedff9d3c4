import { abortableDelay } from "@chorus/channel-kit";
import type { SlackApi } from "./api.js";

/** Waits between `files.info` polls: a quarter second, doubling to two seconds. */
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 2_000;

/** One share of a file into a conversation, as the file object's `shares` lists it. */
interface Share {
  ts?: string;
  thread_ts?: string;
}

/**
 * The `ts` of the message that shared `fileId` into `channel`. `files.completeUploadExternal`
 * answers with the files, not the message, and shares them asynchronously: "There can be a visible
 * delay until the shares in a file's metadata is properly updated … we recommend polling either
 * files.info or conversations.history" (slackapi/python-slack-sdk#1277). So `files.info` is asked
 * until the file object's `shares.public` / `shares.private` (https://api.slack.com/types/file)
 * name the channel, for at most `timeoutMs`; undefined when they never did.
 */
export async function sharedAt(
  api: SlackApi,
  fileId: string,
  channel: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, LONGEST_POLL_MS)) {
    const { file } = await api.call("files.info", (web) => web.files.info({ file: fileId }));
    const shares = file?.shares as { public?: Record<string, Share[]>; private?: Record<string, Share[]> } | undefined;
    const found = [...(shares?.public?.[channel] ?? []), ...(shares?.private?.[channel] ?? [])]
      .map((share) => share.ts)
      .filter((ts): ts is string => typeof ts === "string")
      .sort((a, b) => Number(a) - Number(b));
    if (found.length > 0) return found.at(-1);
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return undefined;
    await abortableDelay(Math.min(wait, left), signal);
  }
}
