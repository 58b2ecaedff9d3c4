import { byId, setStatus, showError } from "./dom.js";
import { askName, hello } from "./identity.js";
import { appendMessage, MAX_SHOWN, renderMessages, showReactions } from "./messages.js";
import { join, renderRoomHead, renderRooms, selectRoom } from "./rooms.js";
import { state } from "./state.js";
import { load, save } from "./storage.js";
import { renderTyping, typingFrame } from "./typing.js";
import type { ChatMessage, ErrorFrame, ReactionsFrame, ServerFrame, WelcomeFrame } from "./wire.js";

/** What the page does with each frame the gateway sends. */
export function handle(frame: ServerFrame): void {
  switch (frame.type) {
    case "welcome":
      welcome(frame);
      return;
    case "history":
      state.messages.set(frame.room, frame.messages.slice());
      if (frame.room === state.pendingJoin) {
        state.pendingJoin = null;
        selectRoom(frame.room);
      } else if (frame.room === state.current) renderMessages();
      return;
    case "message":
      received(frame.message);
      return;
    case "reactions":
      reacted(frame);
      return;
    case "typing":
      typingFrame(frame);
      return;
    case "room":
      state.rooms.set(frame.room.id, frame.room);
      renderRooms();
      if (frame.room.id === state.current) renderRoomHead();
      return;
    case "error":
      failed(frame);
      return;
  }
}

/** Identified: remember who this is, list the rooms, join the ones they are in and show one. */
function welcome(frame: WelcomeFrame): void {
  state.me = frame.you;
  state.bot = frame.bot;
  save("userId", frame.you.id);
  save("name", frame.you.name);
  byId("name-overlay").hidden = true;
  byId("me").textContent = `You are ${frame.you.name}`;
  setStatus("Connected");
  for (const room of frame.rooms) state.rooms.set(room.id, room);
  const wanted = state.current || load("room");
  const first = frame.rooms[0]?.id;
  for (const room of frame.rooms) {
    const member = room.members.some((m) => m.id === frame.you.id);
    if (member && room.id !== wanted) join(room.id);
  }
  selectRoom(wanted && state.rooms.has(wanted) ? wanted : first);
}

function received(message: ChatMessage): void {
  let list = state.messages.get(message.room);
  if (!list) {
    list = [];
    state.messages.set(message.room, list);
  }
  list.push(message);
  if (list.length > MAX_SHOWN) list.splice(0, list.length - MAX_SHOWN);
  state.typing.get(message.room)?.delete(message.sender.id);
  if (message.room === state.current) {
    appendMessage(message);
    renderTyping();
  } else {
    state.unread.add(message.room);
    renderRooms();
  }
}

function reacted(frame: ReactionsFrame): void {
  const message = state.messages.get(frame.room)?.find((m) => m.id === frame.messageId);
  if (!message) return;
  message.reactions = frame.reactions;
  showReactions(message);
}

function failed(frame: ErrorFrame): void {
  if (frame.frame === "hello") {
    // A stored identity the gateway does not know (any more): start a new one under the same name.
    if (/userId/.test(frame.message)) {
      save("userId", null);
      hello();
      return;
    }
    askName(frame.message);
    return;
  }
  if (frame.frame === "join" && state.pendingJoin) {
    state.joined.delete(state.pendingJoin);
    state.pendingJoin = null;
  }
  showError(frame.message + (frame.hint ? ` ${frame.hint}` : ""));
}
