import { send } from "./connection.js";
import { byId } from "./dom.js";
import { state } from "./state.js";
import { composing, stoppedComposing } from "./typing.js";
import type { ChatMessage, ClientFrame } from "./wire.js";

/** Makes the composer answer `message`, with a preview of it. */
export function startReply(message: ChatMessage): void {
  state.replyTo = message;
  byId("reply-text").textContent = `Replying to ${message.sender.name}: ${message.text.slice(0, 80)}`;
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
  byId("composer-form").addEventListener("submit", submitMessage);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submitMessage(event);
  });
  box.addEventListener("input", composing);
  byId("reply-cancel").addEventListener("click", cancelReply);
}

function submitMessage(event: Event): void {
  event.preventDefault();
  const box = byId<HTMLTextAreaElement>("composer");
  if (box.value.trim() === "" || !state.current) return;
  const frame: Extract<ClientFrame, { type: "message" }> = { type: "message", room: state.current, text: box.value };
  if (state.replyTo) frame.replyTo = state.replyTo.id;
  if (!send(frame)) return;
  box.value = "";
  cancelReply();
  stoppedComposing();
}
