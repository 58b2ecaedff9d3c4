/**
 * The webchat page's script: built by rolldown (`rolldown.config.mjs`) into one ES2020 file that
 * the gateway inlines into the page (`../page.ts`), type-checked under `tsconfig.page.json`.
 */
import { watchComposer } from "./composer.js";
import { connect } from "./connection.js";
import { handle } from "./frames.js";
import { askName, hello, watchNameForm } from "./identity.js";
import { watchJoinForm } from "./rooms.js";
import { state } from "./state.js";
import { load } from "./storage.js";
import { renderTyping } from "./typing.js";

watchNameForm();
watchComposer();
watchJoinForm();
// Typing indicators run out on their own.
setInterval(() => {
  if (state.typing.size > 0) renderTyping();
}, 1000);
if (!load("name")) askName("");
connect({
  opened: hello,
  frame: handle,
  lost: () => state.joined.clear(),
});
