import { cancelReply } from "./composer.js";
import { send } from "./connection.js";
import { byId, el } from "./dom.js";
import { renderMessages } from "./messages.js";
import { state } from "./state.js";
import { save } from "./storage.js";
import { renderTyping } from "./typing.js";
import type { Room } from "./wire.js";

/** How a room is named in the list and the header. */
function roomLabel(room: Room): string {
  return room.kind === "direct" ? `${room.title} (direct)` : `#${room.id}`;
}

/** Joins a room on this connection (once). */
export function join(room: string): void {
  if (state.joined.has(room)) return;
  if (send({ type: "join", room })) state.joined.add(room);
}

/** Puts a room on screen (joining it if needed) and remembers it for the next visit. */
export function selectRoom(room: string | undefined): void {
  if (!room) return;
  state.current = room;
  save("room", room);
  state.unread.delete(room);
  join(room);
  cancelReply();
  renderRooms();
  renderRoomHead();
  renderMessages();
  renderTyping();
}

/** The list of rooms: the one on screen marked, unread ones dotted. */
export function renderRooms(): void {
  const list = byId("room-list");
  list.replaceChildren();
  state.rooms.forEach((room) => {
    const item = el("li");
    const button = el("button", "room", roomLabel(room));
    button.type = "button";
    button.setAttribute("data-testid", "room");
    button.setAttribute("data-room", room.id);
    if (room.id === state.current) button.setAttribute("aria-current", "page");
    if (state.unread.has(room.id)) button.appendChild(el("span", "unread", " •"));
    button.addEventListener("click", () => selectRoom(room.id));
    item.appendChild(button);
    list.appendChild(item);
  });
  revealCurrentRoom();
}

/** Room kept free at each end of the strip when it scrolls (where its arrows sit). */
const STRIP_EDGE = 32;

/**
 * On a narrow screen the rooms are one row that scrolls sideways: the room on screen is scrolled
 * into it (clear of the arrows), and the arrows show on the side where more rooms are.
 */
function revealCurrentRoom(): void {
  const list = byId("room-list");
  const current = list.querySelector<HTMLElement>('[aria-current="page"]');
  if (current && list.scrollWidth > list.clientWidth + 1) {
    const box = list.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    const from = item.left - (box.left + STRIP_EDGE);
    const past = item.right - (box.right - STRIP_EDGE);
    if (from < 0) list.scrollLeft += from;
    else if (past > 0) list.scrollLeft += Math.min(past, from);
  }
  showStripArrows();
}

/** The strip's arrows: each shown while rooms are hidden on its side. */
function showStripArrows(): void {
  const list = byId("room-list");
  const overflows = list.scrollWidth > list.clientWidth + 1;
  byId("rooms-back").hidden = !overflows || list.scrollLeft <= 1;
  byId("rooms-on").hidden = !overflows || list.scrollLeft + list.clientWidth >= list.scrollWidth - 1;
}

/** The room strip follows its scrolling and size; its arrows scroll it by most of its width. */
export function watchRoomStrip(): void {
  const list = byId("room-list");
  list.addEventListener("scroll", showStripArrows, { passive: true });
  new ResizeObserver(revealCurrentRoom).observe(list);
  const page = (direction: number) => () =>
    list.scrollBy({ left: direction * Math.max(list.clientWidth - 2 * STRIP_EDGE, 40), behavior: "smooth" });
  byId("rooms-back").addEventListener("click", page(-1));
  byId("rooms-on").addEventListener("click", page(1));
}

/** The header of the room on screen: its name and members. */
export function renderRoomHead(): void {
  const room = state.current === null ? undefined : state.rooms.get(state.current);
  byId("room-title").textContent = room ? roomLabel(room) : "";
  byId("room-members").textContent = room ? room.members.map((m) => m.name).join(", ") : "";
}

/** The join box: a room by name (`#Team Chat` → `team-chat`), created if needed, shown once joined. */
export function watchJoinForm(): void {
  byId("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>("join-input");
    const name = input.value.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
    if (!name) return;
    input.value = "";
    if (state.rooms.has(name) && state.joined.has(name)) {
      selectRoom(name);
      return;
    }
    state.pendingJoin = name;
    send({ type: "join", room: name });
    state.joined.add(name);
  });
}
