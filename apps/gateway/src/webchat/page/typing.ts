import { sendQuietly } from "./connection.js";
import { byId } from "./dom.js";
import { state } from "./state.js";
import type { TypingFrame } from "./wire.js";

/** How long someone counts as typing after their last typing frame. */
const TYPING_SHOWN_MS = 6000;

/** Notes who started or stopped typing where. */
export function typingFrame(frame: TypingFrame): void {
  let room = state.typing.get(frame.room);
  if (!room) {
    room = new Map();
    state.typing.set(frame.room, room);
  }
  if (frame.on) room.set(frame.userId, Date.now() + TYPING_SHOWN_MS);
  else room.delete(frame.userId);
  if (frame.room === state.current) renderTyping();
}

/** The "… is typing" line of the room on screen. */
export function renderTyping(): void {
  const now = Date.now();
  const who: string[] = [];
  const typing = state.current === null ? undefined : state.typing.get(state.current);
  if (typing) {
    typing.forEach((until, userId) => {
      if (until > now) who.push(userName(state.current as string, userId));
      else typing.delete(userId);
    });
  }
  byId("typing").textContent =
    who.length === 0 ? "" : who.join(", ") + (who.length === 1 ? " is typing…" : " are typing…");
}

/** Tells the room this person is typing (at most every 3 s), and that they stopped after 4 s without input. */
export function composing(): void {
  const now = Date.now();
  if (now - state.typingSentAt > 3000) {
    state.typingSentAt = now;
    sendTyping(true);
  }
  clearTimeout(state.typingOffTimer);
  state.typingOffTimer = setTimeout(() => {
    state.typingSentAt = 0;
    sendTyping(false);
  }, 4000);
}

/** Tells the room this person stopped typing (they sent their message). */
export function stoppedComposing(): void {
  clearTimeout(state.typingOffTimer);
  state.typingSentAt = 0;
  sendTyping(false);
}

function sendTyping(on: boolean): void {
  if (!state.current) return;
  sendQuietly({ type: "typing", room: state.current, on });
}

function userName(room: string, userId: string): string {
  if (state.bot && userId === state.bot.id) return state.bot.name;
  const member = state.rooms.get(room)?.members.find((m) => m.id === userId);
  return member ? member.name : "Someone";
}
