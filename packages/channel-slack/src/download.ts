import { anySignal, downloadMedium, tooLarge } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError, type DownloadedMedium } from "@chorus/core";
import type { SlackApi } from "./api.js";
import type { SlackFileSource, SlackFileUnavailable } from "./attachments.js";
import type { SlackConfig } from "./config.js";

/** What each reason Slack withholds a file means to the agent. */
const UNAVAILABLE: Record<
  SlackFileUnavailable,
  { code: "E_MESSAGE_NOT_FOUND" | "E_AUTH" | "E_UNSUPPORTED"; why: string }
> = {
  deleted: { code: "E_MESSAGE_NOT_FOUND", why: "was deleted" },
  hidden_by_limit: { code: "E_MESSAGE_NOT_FOUND", why: "is hidden by the workspace plan's file limit" },
  access_denied: { code: "E_AUTH", why: "is not shared with the bot" },
  external: { code: "E_UNSUPPORTED", why: "is hosted outside Slack" },
  unreadable: { code: "E_MESSAGE_NOT_FOUND", why: "came without a file id" },
};

/**
 * `download` for Slack (DESIGN §3): the file's `url_private_download` with `Authorization: Bearer
 * <bot token>` ("Both url_private and url_private_download require an authorization header …
 * bearing at least the files:read scope", file object docs). The token goes to `fileHosts` only:
 * a URL elsewhere is refused before any request, and a redirect is followed with the token only
 * when it stays on those hosts (Enterprise Grid's `files-origin.slack.com`), without it anywhere
 * else (a CDN's signed URL, the workspace's sign-in page). Slack answers a request it does not
 * accept with its HTML sign-in page, status 200 (slackapi/bolt-js#2585): that is `E_AUTH`, not a
 * file. A Slack Connect stub gets its URL from `files.info` first.
 */
export function createDownload(
  api: SlackApi,
  config: Pick<SlackConfig, "botToken" | "fileHosts">,
  lifetime: AbortSignal,
): NonNullable<ChannelInstance["download"]> {
  const hosts = new Set(config.fileHosts);
  return async (attachment, { maxBytes, signal }) => {
    const source = sourceOf(attachment);
    const what = source.fileId ? `Slack file ${source.fileId}` : "A Slack file";
    if (source.unavailable) throw unavailable(what, source);
    if (attachment.size !== undefined && attachment.size > maxBytes) throw tooLarge(what, maxBytes, attachment.size);
    const url = source.url ?? (await urlFromInfo(api, source.fileId, what));
    if (!URL.canParse(url) || !hosts.has(new URL(url).origin)) {
      throw new ChorusError("E_INVALID_INPUT", `${what} is not on Slack's file hosts; it was not downloaded.`, {
        hint: "A self-hosted or regional Slack serves files elsewhere: add that origin to channels.slack.fileHosts.",
      });
    }
    const medium = await downloadMedium(url, {
      maxBytes,
      what,
      headers: { authorization: `Bearer ${config.botToken}` },
      credentialOrigins: [...hosts],
      signal: signal ? anySignal([lifetime, signal]) : lifetime,
    });
    if (medium.mime === "text/html" && attachment.mime !== "text/html") {
      await medium.stream.cancel().catch(() => undefined);
      throw new ChorusError("E_AUTH", `Slack answered the download of ${what} with its sign-in page, not the file.`, {
        hint: "Add the files:read scope under OAuth & Permissions, reinstall the app and set the new botToken.",
      });
    }
    return withMime(medium, attachment.mime);
  };
}

/** `files.info` for a file the event did not describe (a Slack Connect stub). */
async function urlFromInfo(api: SlackApi, fileId: string, what: string): Promise<string> {
  const { file } = await api.call("files.info", (web) => web.files.info({ file: fileId }));
  const url = file?.url_private_download || file?.url_private;
  if (!url) throw new ChorusError("E_MESSAGE_NOT_FOUND", `Slack gave no download URL for ${what}.`);
  return url;
}

/** The file host may answer `application/octet-stream`; what the event said is more telling then. */
function withMime(medium: DownloadedMedium, said: string | undefined): DownloadedMedium {
  const mime = medium.mime && medium.mime !== "application/octet-stream" ? medium.mime : said;
  return {
    stream: medium.stream,
    ...(mime ? { mime } : {}),
    ...(medium.size !== undefined ? { size: medium.size } : {}),
  };
}

function unavailable(what: string, source: SlackFileSource): ChorusError {
  const { code, why } = UNAVAILABLE[source.unavailable as SlackFileUnavailable];
  const where = source.externalType ? ` (${source.externalType})` : "";
  return new ChorusError(code, `${what} ${why}${where}: Slack does not give the bot its bytes.`, {
    details: { reason: source.unavailable },
  });
}

function sourceOf(attachment: Attachment): SlackFileSource {
  const source = attachment.source as Partial<SlackFileSource> | null | undefined;
  if (typeof source?.fileId !== "string" || (source.fileId === "" && source.unavailable === undefined)) {
    throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no Slack file to download.`);
  }
  return source as SlackFileSource;
}
