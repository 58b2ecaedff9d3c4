import { byId, el } from "./dom.js";

/**
 * The page's link has no token, or one the gateway refuses: the name box says so instead of asking
 * for a name, and the chat behind it is not shown (nothing in it could work).
 */
export function denyAccess(): void {
  byId("layout").hidden = true;
  byId("me").hidden = true;
  byId("name-title").textContent = "This link does not work";
  const note = byId("name-note");
  note.replaceChildren(
    "This link has no valid access token — ask for a new link (whoever runs the gateway prints it with ",
    el("code", "", "chorus token --webchat"),
    ").",
  );
  note.hidden = false;
  for (const id of ["name-label", "name-input", "name-error", "name-submit"]) byId(id).hidden = true;
  byId("name-overlay").hidden = false;
}
