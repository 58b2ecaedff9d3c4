import { pageToken } from "./connection.js";
import { byId, el } from "./dom.js";
import { formatBytes, hooksPath } from "./format.js";
import { icon } from "./icons.js";

/** A file on its way up, shown in the tray above the composer until the message carrying it is sent. */
interface Upload {
  readonly file: File;
  readonly item: HTMLLIElement;
  readonly abort: AbortController;
  state: "uploading" | "done" | "failed";
  /** The upload's id once the gateway took the announcement. */
  id?: string;
  /** Settles when the upload is done or failed. */
  finished: Promise<void>;
  /** The preview's object URL, released with the item. */
  preview?: string;
}

/** An answer of the webchat's upload routes. */
interface Answer {
  ok: boolean;
  id?: string;
  received?: number;
  pieceBytes?: number;
  error?: { code: string; message: string };
}

const uploads: Upload[] = [];

/** Starts uploading each file, shown in the tray with its progress. */
export function addFiles(files: readonly File[]): void {
  for (const file of files) {
    const item = el("li", "upload");
    item.setAttribute("data-testid", "upload");
    item.setAttribute("data-filename", file.name);
    const upload: Upload = {
      file,
      item,
      abort: new AbortController(),
      state: "uploading",
      finished: Promise.resolve(),
    };
    uploads.push(upload);
    render(upload, 0);
    byId("tray").appendChild(item);
    upload.finished = send(upload).then(
      () => finish(upload, "done"),
      (error: unknown) => finish(upload, "failed", error instanceof Error ? error.message : String(error)),
    );
  }
  byId("tray").hidden = uploads.length === 0;
}

/** The tray's uploads: whether some failed, and the ids of those done once none is still uploading. */
export async function settledUploads(): Promise<{ failed: number; ids: string[] }> {
  await Promise.all(uploads.map((upload) => upload.finished));
  return {
    failed: uploads.filter((upload) => upload.state === "failed").length,
    ids: uploads.flatMap((upload) => (upload.state === "done" && upload.id ? [upload.id] : [])),
  };
}

/** Whether the tray holds anything. */
export function hasUploads(): boolean {
  return uploads.length > 0;
}

/** Empties the tray (its message was sent). */
export function clearUploads(): void {
  for (const upload of uploads.splice(0)) drop(upload);
  byId("tray").hidden = true;
}

function remove(upload: Upload): void {
  const at = uploads.indexOf(upload);
  if (at >= 0) uploads.splice(at, 1);
  upload.abort.abort();
  drop(upload);
  byId("tray").hidden = uploads.length === 0;
  byId("composer").focus();
}

function drop(upload: Upload): void {
  if (upload.preview) URL.revokeObjectURL(upload.preview);
  upload.item.remove();
}

/**
 * Announces the file (the gateway refuses one over its limit at once), then sends it in pieces,
 * halving them when the gateway's own body limit refuses one.
 */
async function send(upload: Upload): Promise<void> {
  const { file } = upload;
  const size = await imageSize(file);
  const begun = await call(
    "POST",
    "",
    JSON.stringify({ filename: file.name || "file", mime: file.type, size: file.size, ...size }),
    upload,
  );
  if (!begun.ok || !begun.id) throw new Error(begun.error?.message ?? "The upload was refused.");
  upload.id = begun.id;
  let piece = begun.pieceBytes ?? 256 * 1024;
  let offset = 0;
  while (offset < file.size) {
    const query = `?id=${encodeURIComponent(begun.id)}&offset=${offset}`;
    const answer = await call("PUT", query, file.slice(offset, offset + piece), upload);
    if (!answer.ok && answer.error?.code !== "E_TOO_LARGE" && answer.status === 413 && piece > 1024) {
      piece = Math.floor(piece / 2);
      continue;
    }
    if (!answer.ok || answer.received === undefined) throw new Error(answer.error?.message ?? "The upload failed.");
    offset = answer.received;
    render(upload, offset);
  }
}

async function call(
  method: "POST" | "PUT",
  query: string,
  body: string | Blob,
  upload: Upload,
): Promise<Answer & { status: number }> {
  let response: Response;
  try {
    response = await fetch(`${hooksPath()}/upload${query}`, {
      method,
      headers: {
        authorization: `Bearer ${pageToken() ?? ""}`,
        "content-type": typeof body === "string" ? "application/json" : "application/octet-stream",
      },
      body,
      signal: upload.abort.signal,
    });
  } catch {
    throw new Error(`"${upload.file.name}" could not be uploaded: the connection to the gateway broke.`);
  }
  const answer = (await response.json().catch(() => ({ ok: false }))) as Answer;
  return { ...answer, status: response.status };
}

/** A picture's size in pixels, to show it at its size before it loads; nothing for other files. */
async function imageSize(file: File): Promise<{ width?: number; height?: number }> {
  if (!file.type.startsWith("image/") || file.type.includes("svg") || typeof createImageBitmap !== "function")
    return {};
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return {};
  }
}

function finish(upload: Upload, state: "done" | "failed", problem?: string): void {
  if (upload.abort.signal.aborted) return;
  upload.state = state;
  render(upload, state === "done" ? upload.file.size : 0, problem);
}

/** The tray item of an upload: a preview or an icon, its name and size, its progress or what went wrong. */
function render(upload: Upload, sent: number, problem?: string): void {
  const { file, item } = upload;
  item.setAttribute("data-state", upload.state);
  item.replaceChildren();
  if (file.type.startsWith("image/") && !file.type.includes("svg")) {
    upload.preview ??= URL.createObjectURL(file);
    const thumb = el("img", "upload-thumb");
    thumb.src = upload.preview;
    thumb.alt = "";
    item.appendChild(thumb);
  } else {
    const shape = file.type.startsWith("audio/") ? "audio" : file.type.startsWith("video/") ? "video" : "file";
    item.appendChild(icon(shape, "icon upload-icon"));
  }
  const body = el("div", "upload-body");
  body.appendChild(el("span", "upload-name", file.name || "file"));
  if (upload.state === "failed") {
    const error = el("span", "upload-error", problem ?? "The upload failed.");
    error.setAttribute("role", "alert");
    error.setAttribute("data-testid", "upload-error");
    body.appendChild(error);
  } else {
    const progress = el("progress", "upload-progress");
    progress.max = Math.max(file.size, 1);
    progress.value = upload.state === "done" ? progress.max : sent;
    progress.setAttribute("aria-label", `Uploading ${file.name}`);
    body.appendChild(progress);
    const status =
      upload.state === "done"
        ? `${formatBytes(file.size)} · ready`
        : `${formatBytes(sent)} of ${formatBytes(file.size)}`;
    body.appendChild(el("span", "upload-status", status));
  }
  item.appendChild(body);
  const cancel = el("button", "upload-remove", "×");
  cancel.type = "button";
  cancel.setAttribute("aria-label", `Remove ${file.name || "file"}`);
  cancel.setAttribute("data-testid", "upload-remove");
  cancel.addEventListener("click", () => remove(upload));
  item.appendChild(cancel);
}
