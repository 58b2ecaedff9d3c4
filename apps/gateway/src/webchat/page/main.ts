/**
 * The webchat page's script: built by rolldown (`rolldown.config.mjs`) into one ES2020 file that
 * the gateway inlines into the page (`../page.ts`), type-checked under `tsconfig.page.json`.
 */
import { denyAccess } from "./access.js";
import { watchAttachments } from "./attach.js";
import { watchComposer } from "./composer.js";
import { connect, pageToken } from "./connection.js";
import { setStatus } from "./dom.js";
import { handle } from "./frames.js";
import { askName, hello, watchNameForm } from "./identity.js";
import { watchMessages } from "./messages.js";
import { watchPicker } from "./popover.js";
import { watchJoinForm, watchRoomStrip } from "./rooms.js";
import { state } from "./state.js";
import { load } from "./storage.js";
import { renderTyping } from "./typing.js";

watchNameForm();
watchComposer();
watchAttachments();
watchMessages();
watchJoinForm();
watchRoomStrip();
watchPicker();
// Typing indicators run out on their own.
setInterval(() => {
  if (state.typing.size > 0) renderTyping();
}, 1000);
if (pageToken() === null) {
  // Without a token nothing can connect: say so, and show no chat.
  setStatus('This link has no token: open the link that "chorus token --webchat" prints.');
  denyAccess();
} else {
  if (!load("name")) askName("");
  connect({
    opened: hello,
    frame: handle,
    lost: () => state.joined.clear(),
    refused: denyAccess,
  });
}
