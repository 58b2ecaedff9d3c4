import { send } from "./connection.js";
import { byId, showError } from "./dom.js";
import { state } from "./state.js";
import { composing, stoppedComposing } from "./typing.js";
import { clearUploads, hasUploads, settledUploads } from "./uploads.js";
import type { ChatMessage, ClientFrame } from "./wire.js";

/** Makes the composer answer `message`, with a preview of it. */
export function startReply(message: ChatMessage): void {
  state.replyTo = message;
  const gist = message.text || (message.attachments ?? []).map((medium) => medium.filename).join(", ");
  byId("reply-text").textContent = `Replying to ${message.sender.name}: ${gist.slice(0, 80)}`;
  byId("reply-preview").hidden = false;
  byId("composer").focus();
}

/** The composer answers nothing in particular again. */
export function cancelReply(): void {
  state.replyTo = null;
  byId("reply-preview").hidden = true;
}

/** The composer: Enter (without Shift) or the button sends, typing is announced, a reply can be dropped. */
export function watchComposer(): void {
  const box = byId<HTMLTextAreaElement>("composer");
  byId("composer-form").addEventListener("submit", (event) => void submitMessage(event));
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) void submitMessage(event);
  });
  box.addEventListener("input", composing);
  byId("reply-cancel").addEventListener("click", cancelReply);
}

let submitting = false;

/** Sends the message (once the files in the tray are uploaded: the message carries them). */
async function submitMessage(event: Event): Promise<void> {
  event.preventDefault();
  const box = byId<HTMLTextAreaElement>("composer");
  const room = state.current;
  if ((box.value.trim() === "" && !hasUploads()) || !room || submitting) return;
  const button = byId<HTMLButtonElement>("send");
  submitting = true;
  button.textContent = "Sending…";
  try {
    const { failed, ids } = await settledUploads();
    if (failed > 0) {
      showError("A file could not be uploaded: remove it (×) or attach it again, then send.");
      return;
    }
    const text = box.value.trim() === "" ? "" : box.value;
    if (text === "" && ids.length === 0) return;
    const frame: Extract<ClientFrame, { type: "message" }> = { type: "message", room, text };
    if (ids.length > 0) frame.attachments = ids;
    if (state.replyTo) frame.replyTo = state.replyTo.id;
    if (!send(frame)) return;
    box.value = "";
    clearUploads();
    cancelReply();
    stoppedComposing();
  } finally {
    submitting = false;
    button.textContent = "Send";
  }
}
