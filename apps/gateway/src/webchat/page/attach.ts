import { byId } from "./dom.js";
import { icon } from "./icons.js";
import { addFiles } from "./uploads.js";

/**
 * The three ways a file reaches the tray: the attach button (a file chooser), pasting (pictures
 * copied to the clipboard) into the message box, and dropping files on the chat.
 */
export function watchAttachments(): void {
  const input = byId<HTMLInputElement>("attach-input");
  const button = byId("attach");
  button.replaceChildren(icon("clip"));
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    addFiles([...(input.files ?? [])]);
    input.value = "";
  });
  byId("composer").addEventListener("paste", (event: ClipboardEvent) => {
    const files = [...(event.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    addFiles(files);
  });
  const chat = document.querySelector<HTMLElement>(".chat");
  const composer = byId("composer-form");
  if (!chat) return;
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") === true;
  // A file dropped next to the chat is not opened in place of the page.
  for (const type of ["dragover", "drop"] as const) {
    window.addEventListener(type, (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    });
  }
  chat.addEventListener("dragover", (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    composer.classList.add("dropping");
  });
  chat.addEventListener("dragleave", (event: DragEvent) => {
    if (!chat.contains(event.relatedTarget as Node | null)) composer.classList.remove("dropping");
  });
  chat.addEventListener("drop", (event: DragEvent) => {
    composer.classList.remove("dropping");
    if (!carriesFiles(event)) return;
    event.preventDefault();
    addFiles([...(event.dataTransfer?.files ?? [])]);
  });
}
