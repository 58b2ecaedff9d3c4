import { downloadMedium, PlatformHttpError, tooLarge } from "@chorus/channel-kit";
import {
  type Attachment,
  type ChannelInstance,
  ChorusError,
  type DownloadedMedium,
  type DownloadOptions,
} from "@chorus/core";
import type { FeishuApi } from "./api.js";
import type { FeishuResourceSource } from "./attachments.js";
import { FeishuCode, feishuRefusal } from "./errors.js";

/**
 * `download` for Feishu (DESIGN §3): `GET {domain}/open-apis/im/v1/messages/:message_id/resources/
 * :file_key?type=image|file` (获取消息中的资源文件) with the tenant token, through the kit's capped
 * download, which sends the token only to the configured Open API's origin. Feishu answers the
 * bytes with their Content-Type, or its `{ code, msg }` envelope with a 4xx, which is read so the
 * error says what Feishu said; when the token is no longer valid the download is made once more
 * with a fresh one. Feishu serves nothing over 100 MB (code 234037, `E_TOO_LARGE`).
 */
export function createDownload(api: FeishuApi, domain: string): NonNullable<ChannelInstance["download"]> {
  const origin = new URL(domain).origin;
  const once = async (source: FeishuResourceSource, what: string, options: DownloadOptions) => {
    const path = `/open-apis/im/v1/messages/${encodeURIComponent(source.messageId)}/resources/${encodeURIComponent(source.key)}`;
    let refusal: ChorusError | undefined;
    // Feishu's refusals are small JSON envelopes: read them here; the kit's download would only say "HTTP 400".
    const inspecting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.ok || !/json/iu.test(response.headers.get("content-type") ?? "")) return response;
      const text = await response.text();
      refusal = feishuRefusal({
        call: { method: "GET", path },
        operation: `download ${what}`,
        status: response.status,
        headers: response.headers,
        text,
        json: parseJson(text),
      });
      return new Response(null, { status: response.status, headers: { "content-type": "text/plain" } });
    };
    try {
      return await downloadMedium(`${domain}${path}?type=${source.type}`, {
        maxBytes: options.maxBytes,
        what,
        headers: { authorization: `Bearer ${await api.tenantToken()}` },
        credentialOrigins: [origin],
        fetch: inspecting,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw refusal ?? error;
    }
  };
  return async (attachment: Attachment, options: DownloadOptions): Promise<DownloadedMedium> => {
    const source = sourceOf(attachment);
    const what = `Feishu ${attachment.kind} ${source.key.slice(0, 40)}`;
    if (attachment.size !== undefined && attachment.size > options.maxBytes) {
      throw tooLarge(what, options.maxBytes, attachment.size);
    }
    try {
      return await once(source, what, options);
    } catch (error) {
      if (!(error instanceof PlatformHttpError) || error.platformCode !== String(FeishuCode.invalidToken)) throw error;
      api.forgetToken();
      return once(source, what, options);
    }
  };
}

/** The message and key an attachment came with; `E_INVALID_INPUT` when it is not a Feishu medium. */
function sourceOf(attachment: Attachment): FeishuResourceSource {
  const source = attachment.source as Partial<FeishuResourceSource> | null | undefined;
  const valid =
    typeof source?.messageId === "string" &&
    source.messageId !== "" &&
    typeof source.key === "string" &&
    source.key !== "" &&
    (source.type === "image" || source.type === "file");
  if (!valid) {
    throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no Feishu resource to download`, {
      details: { kind: attachment.kind },
    });
  }
  return source as FeishuResourceSource;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
