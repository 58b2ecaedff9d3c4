import { isOpen, send } from "./connection.js";
import { byId, setStatus } from "./dom.js";
import { load, save } from "./storage.js";
import type { ClientFrame } from "./wire.js";

/** Says hello with the stored name (and identity), or asks for a name first. */
export function hello(): void {
  const name = load("name");
  if (!name) {
    setStatus("Choose a name to start");
    askName("");
    return;
  }
  const frame: Extract<ClientFrame, { type: "hello" }> = { type: "hello", name };
  const userId = load("userId");
  if (userId) frame.userId = userId;
  send(frame);
}

/** Shows the name box with `problem` (empty: none). */
export function askName(problem: string): void {
  byId("name-error").textContent = problem;
  // Shown already (at page load, before the socket opened): keep what the person is typing.
  const overlay = byId("name-overlay");
  if (overlay.hidden) {
    overlay.hidden = false;
    byId<HTMLInputElement>("name-input").value = load("name") || "";
  }
  byId("name-input").focus();
}

/** The name box: stores the name and says hello once connected. */
export function watchNameForm(): void {
  byId("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = byId<HTMLInputElement>("name-input").value.trim();
    if (!name) {
      byId("name-error").textContent = "Please enter a name.";
      return;
    }
    save("name", name);
    byId("name-overlay").hidden = true;
    if (isOpen()) hello();
  });
}
