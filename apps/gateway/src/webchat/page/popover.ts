import { byId } from "./dom.js";

/** Room kept between the picker and what bounds it. */
const MARGIN = 8;
/** Gap between the picker and the button that opened it. */
const GAP = 4;

let open: { box: HTMLElement; toggle: HTMLElement } | null = null;

/** Opens a message's reaction picker by its button, or closes it when it is the one open. */
export function togglePicker(box: HTMLElement, toggle: HTMLElement): void {
  const wasOpen = open?.box === box;
  closePicker();
  if (wasOpen) return;
  box.hidden = false;
  toggle.setAttribute("aria-expanded", "true");
  open = { box, toggle };
  place(box, toggle);
  box.querySelector<HTMLElement>("button")?.focus({ preventScroll: true });
}

/** Closes the open picker, if any; `refocus` puts the focus back on its button. */
export function closePicker(refocus = false): void {
  if (!open) return;
  const { box, toggle } = open;
  open = null;
  box.hidden = true;
  toggle.setAttribute("aria-expanded", "false");
  if (refocus) toggle.focus();
}

/**
 * Closes the picker on Escape, a click or tap elsewhere, and when the messages scroll or the window
 * changes size (it is placed for where its button was).
 */
export function watchPicker(): void {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && open) closePicker(true);
  });
  document.addEventListener("pointerdown", (event) => {
    const target = event.target as Node | null;
    if (open && target && !open.box.contains(target) && !open.toggle.contains(target)) closePicker();
  });
  byId("messages").addEventListener("scroll", () => closePicker(), { passive: true });
  window.addEventListener("resize", () => closePicker());
}

/**
 * Places the picker (fixed, so the message list cannot clip it) below its button, or above it when
 * there is no room below before the bottom of the message list (the newest message sits right above
 * the composer), kept inside the list and the window.
 */
function place(box: HTMLElement, toggle: HTMLElement): void {
  box.style.left = "0px";
  box.style.top = "0px";
  const { width, height } = box.getBoundingClientRect();
  const anchor = toggle.getBoundingClientRect();
  const list = byId("messages").getBoundingClientRect();
  const top = Math.max(list.top, 0) + MARGIN;
  const bottom = Math.min(list.bottom, window.innerHeight) - MARGIN;
  const below = anchor.bottom + GAP;
  const above = anchor.top - GAP - height;
  const y = below + height <= bottom ? below : above >= top ? above : clamp(below, top, bottom - height);
  const x = clamp(anchor.left, MARGIN, window.innerWidth - MARGIN - width);
  box.style.left = `${Math.round(x)}px`;
  box.style.top = `${Math.round(y)}px`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)));
}
