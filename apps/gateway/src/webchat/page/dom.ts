/**
 * The page's DOM helpers: elements by id, new elements, the status line and the error toast. User
 * content only ever reaches the page through text nodes and attributes, never parsed as markup.
 */

/** The element with `id`; the page's markup has every id the script uses. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the webchat page has no #${id}`);
  return node as T;
}

/** A new element with an optional class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The line in the header that says how the connection is. */
export function setStatus(text: string): void {
  byId("status").textContent = text;
}

let toastTimer: number | undefined;

/** Shows an error for a few seconds. */
export function showError(text: string): void {
  const toast = byId("toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, 6000);
}
