import { startReply } from "./composer.js";
import { byId, el } from "./dom.js";
import { mediaOf } from "./media.js";
import { togglePicker } from "./popover.js";
import { picker, renderReactions } from "./reactions.js";
import { state } from "./state.js";
import type { ChatMessage, User } from "./wire.js";

/** Messages a room shows at most. */
export const MAX_SHOWN = 1000;

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** All messages of the room on screen, scrolled to the newest. */
export function renderMessages(): void {
  const list = byId("messages");
  const messages = state.current === null ? undefined : state.messages.get(state.current);
  list.replaceChildren();
  if (messages) for (const message of messages) list.appendChild(messageElement(message));
  list.scrollTop = list.scrollHeight;
  wasAtBottom = true;
}

/** Whether the message list shows its bottom (within a little). */
function atBottom(list: HTMLElement): boolean {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
}

let wasAtBottom = true;

/** A picture or video got its size: the list stays at its bottom when it was there. */
function keepAtBottom(): void {
  const list = byId("messages");
  if (wasAtBottom) list.scrollTop = list.scrollHeight;
}

/** Follows whether the list is at its bottom, for media that load later. */
export function watchMessages(): void {
  const list = byId("messages");
  list.addEventListener(
    "scroll",
    () => {
      wasAtBottom = atBottom(list);
    },
    { passive: true },
  );
}

/** Adds a new message at the bottom; follows it when the list was at the bottom or it is this person's. */
export function appendMessage(message: ChatMessage): void {
  const list = byId("messages");
  const follow = wasAtBottom || atBottom(list);
  list.appendChild(messageElement(message));
  while (list.children.length > MAX_SHOWN) list.firstElementChild?.remove();
  if (follow || (state.me && message.sender.id === state.me.id)) {
    list.scrollTop = list.scrollHeight;
    wasAtBottom = true;
  }
}

/** Shows a message's reactions anew, when it is on screen. */
export function showReactions(message: ChatMessage): void {
  const box = document.getElementById(`msg-${message.id}`)?.querySelector<HTMLElement>(".reactions");
  if (box) renderReactions(message, box);
}

function messageElement(message: ChatMessage): HTMLLIElement {
  const me = state.me;
  const item = el("li", "message");
  item.id = `msg-${message.id}`;
  item.setAttribute("data-testid", "message");
  item.setAttribute("data-message-id", message.id);
  item.setAttribute("data-sender", message.sender.name);
  item.setAttribute("data-sender-id", message.sender.id);
  if (message.sender.bot) item.classList.add("from-bot");
  if (me && message.sender.id === me.id) item.classList.add("mine");
  if (me && message.mentions.some((m) => m.id === me.id)) item.classList.add("mentions-me");
  const head = el("div", "head");
  head.appendChild(el("strong", "sender", message.sender.name));
  const time = el("time", "time", new Date(message.ts).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
  time.dateTime = new Date(message.ts).toISOString();
  head.appendChild(time);
  item.appendChild(head);
  if (message.replyTo) {
    const quote = el("blockquote", "quote", `↩ ${message.replyTo.sender.name}: ${message.replyTo.text}`);
    quote.setAttribute("data-testid", "reply-quote");
    const target = message.replyTo.id;
    quote.addEventListener("click", () => {
      document.getElementById(`msg-${target}`)?.scrollIntoView({ block: "center" });
    });
    item.appendChild(quote);
  }
  if (message.text !== "") item.appendChild(renderText(message.text, message.mentions));
  const media = mediaOf(message, keepAtBottom);
  if (media) item.appendChild(media);
  const actions = el("div", "actions");
  const reply = el("button", "action", "Reply");
  reply.type = "button";
  reply.setAttribute("data-testid", "reply");
  reply.setAttribute("aria-label", `Reply to ${message.sender.name}`);
  reply.addEventListener("click", () => startReply(message));
  const react = el("button", "action", "React");
  react.type = "button";
  react.setAttribute("data-testid", "react");
  react.setAttribute("aria-label", "Add a reaction");
  react.setAttribute("aria-expanded", "false");
  const choices = picker(message);
  react.addEventListener("click", () => togglePicker(choices, react));
  actions.appendChild(reply);
  actions.appendChild(react);
  item.appendChild(actions);
  item.appendChild(choices);
  const reactions = el("div", "reactions");
  reactions.setAttribute("role", "group");
  reactions.setAttribute("aria-label", "Reactions");
  renderReactions(message, reactions);
  item.appendChild(reactions);
  return item;
}

/** Text with the @Name mentions of the message as highlighted spans (longest name wins). */
function renderText(text: string, mentions: readonly User[]): HTMLParagraphElement {
  const out = el("p", "text");
  const names = mentions
    .map((m) => ({ id: m.id, name: m.name.toLocaleLowerCase() }))
    .sort((a, b) => b.name.length - a.name.length);
  let from = 0;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at < from || (at > 0 && WORD_CHAR.test(text.charAt(at - 1)))) continue;
    const start = at;
    const match = names.find((n) => {
      const end = start + 1 + n.name.length;
      return text.slice(start + 1, end).toLocaleLowerCase() === n.name && !WORD_CHAR.test(text.charAt(end));
    });
    if (!match) continue;
    out.appendChild(document.createTextNode(text.slice(from, at)));
    const span = el("span", "mention", text.slice(at, at + 1 + match.name.length));
    if (state.me && match.id === state.me.id) span.classList.add("mention-me");
    out.appendChild(span);
    from = at + 1 + match.name.length;
  }
  out.appendChild(document.createTextNode(text.slice(from)));
  return out;
}
