import { send } from "./connection.js";
import { el } from "./dom.js";
import { closePicker } from "./popover.js";
import { state } from "./state.js";
import type { ChatMessage, Reaction } from "./wire.js";

/** The emoji the picker offers. */
const PICKER = ["👍", "❤️", "😂", "🎉", "😮", "😢", "👀", "🙏"];

/** Emoji stored without U+FE0F still render as emoji. */
function displayEmoji(emoji: string): string {
  const cp = emoji.codePointAt(0) ?? 0;
  return emoji.length === 1 && cp >= 0x2190 && cp <= 0x2bff ? `${emoji}\uFE0F` : emoji;
}

/** Fills `box` with a chip per emoji on `message`; a chip toggles this person's own. */
export function renderReactions(message: ChatMessage, box: HTMLElement): void {
  box.replaceChildren();
  for (const reaction of message.reactions) box.appendChild(reactionChip(message, reaction));
}

function reactionChip(message: ChatMessage, reaction: Reaction): HTMLButtonElement {
  const me = state.me;
  const mine = me !== null && reaction.users.some((u) => u.id === me.id);
  const names = reaction.users.map((u) => u.name).join(", ");
  const shown = displayEmoji(reaction.emoji);
  const chip = el("button", `chip${mine ? " chip-mine" : ""}`, `${shown} ${reaction.users.length}`);
  chip.type = "button";
  chip.setAttribute("data-testid", "reaction");
  chip.setAttribute("data-emoji", reaction.emoji);
  chip.setAttribute("data-count", String(reaction.users.length));
  chip.setAttribute("aria-pressed", mine ? "true" : "false");
  chip.title = names;
  chip.setAttribute("aria-label", `${shown} by ${names}${mine ? "; press to remove yours" : "; press to add yours"}`);
  chip.addEventListener("click", () => {
    send({ type: "react", messageId: message.id, emoji: reaction.emoji, remove: mine });
  });
  return chip;
}

/** The hidden row of emoji to react to `message` with (opened by its React button: `togglePicker`). */
export function picker(message: ChatMessage): HTMLDivElement {
  const box = el("div", "picker");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Pick a reaction");
  box.setAttribute("data-testid", "picker");
  box.hidden = true;
  for (const emoji of PICKER) {
    const button = el("button", "pick", emoji);
    button.type = "button";
    button.setAttribute("data-testid", "picker-emoji");
    button.setAttribute("aria-label", `React with ${emoji}`);
    button.addEventListener("click", () => {
      send({ type: "react", messageId: message.id, emoji });
      closePicker(true);
    });
    box.appendChild(button);
  }
  return box;
}
