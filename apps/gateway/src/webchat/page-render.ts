/**
 * The webchat page's DOM building, as browser JavaScript (ES2020, no framework). User content
 * only ever reaches the page through text nodes and attributes, never innerHTML.
 */
export const PAGE_RENDER_SCRIPT = String.raw`
var PICKER = ["👍", "❤️", "😂", "🎉", "😮", "😢", "👀", "🙏"];
var WORD_CHAR = /[\p{L}\p{N}_]/u;

function $(id) { return document.getElementById(id); }

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Emoji stored without U+FE0F still render as emoji. */
function displayEmoji(emoji) {
  var cp = emoji.codePointAt(0);
  return emoji.length === 1 && cp >= 0x2190 && cp <= 0x2bff ? emoji + "\uFE0F" : emoji;
}

function roomLabel(room) {
  return room.kind === "direct" ? room.title + " (direct)" : "#" + room.id;
}

function userName(room, userId) {
  if (state.bot && userId === state.bot.id) return state.bot.name;
  var info = state.rooms.get(room);
  var member = info && info.members.find(function (m) { return m.id === userId; });
  return member ? member.name : "Someone";
}

/** Text with the @Name mentions of the message as highlighted spans (longest name wins). */
function renderText(text, mentions) {
  var out = el("p", "text");
  var names = mentions.map(function (m) { return { id: m.id, name: m.name.toLocaleLowerCase() }; })
    .sort(function (a, b) { return b.name.length - a.name.length; });
  var from = 0;
  for (var at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at < from || (at > 0 && WORD_CHAR.test(text.charAt(at - 1)))) continue;
    var match = names.find(function (n) {
      var end = at + 1 + n.name.length;
      return text.slice(at + 1, end).toLocaleLowerCase() === n.name && !WORD_CHAR.test(text.charAt(end));
    });
    if (!match) continue;
    out.appendChild(document.createTextNode(text.slice(from, at)));
    var span = el("span", "mention", text.slice(at, at + 1 + match.name.length));
    if (state.me && match.id === state.me.id) span.classList.add("mention-me");
    out.appendChild(span);
    from = at + 1 + match.name.length;
  }
  out.appendChild(document.createTextNode(text.slice(from)));
  return out;
}

function reactionChip(message, reaction) {
  var mine = state.me && reaction.users.some(function (u) { return u.id === state.me.id; });
  var names = reaction.users.map(function (u) { return u.name; }).join(", ");
  var chip = el("button", "chip" + (mine ? " chip-mine" : ""), displayEmoji(reaction.emoji) + " " + reaction.users.length);
  chip.type = "button";
  chip.setAttribute("data-testid", "reaction");
  chip.setAttribute("data-emoji", reaction.emoji);
  chip.setAttribute("data-count", String(reaction.users.length));
  chip.setAttribute("aria-pressed", mine ? "true" : "false");
  chip.title = names;
  chip.setAttribute("aria-label", displayEmoji(reaction.emoji) + " by " + names + (mine ? "; press to remove yours" : "; press to add yours"));
  chip.addEventListener("click", function () {
    send({ type: "react", messageId: message.id, emoji: reaction.emoji, remove: !!mine });
  });
  return chip;
}

function renderReactions(message, box) {
  box.replaceChildren();
  message.reactions.forEach(function (reaction) { box.appendChild(reactionChip(message, reaction)); });
}

function picker(message, toggle) {
  var box = el("div", "picker");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Pick a reaction");
  box.hidden = true;
  PICKER.forEach(function (emoji) {
    var button = el("button", "pick", emoji);
    button.type = "button";
    button.setAttribute("data-testid", "picker-emoji");
    button.setAttribute("aria-label", "React with " + emoji);
    button.addEventListener("click", function () {
      send({ type: "react", messageId: message.id, emoji: emoji });
      box.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
    });
    box.appendChild(button);
  });
  return box;
}

function messageElement(message) {
  var item = el("li", "message");
  item.id = "msg-" + message.id;
  item.setAttribute("data-testid", "message");
  item.setAttribute("data-message-id", message.id);
  item.setAttribute("data-sender", message.sender.name);
  item.setAttribute("data-sender-id", message.sender.id);
  if (message.sender.bot) item.classList.add("from-bot");
  if (state.me && message.sender.id === state.me.id) item.classList.add("mine");
  if (state.me && message.mentions.some(function (m) { return m.id === state.me.id; })) item.classList.add("mentions-me");
  var head = el("div", "head");
  head.appendChild(el("strong", "sender", message.sender.name));
  var time = el("time", "time", new Date(message.ts).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
  time.dateTime = new Date(message.ts).toISOString();
  head.appendChild(time);
  item.appendChild(head);
  if (message.replyTo) {
    var quote = el("blockquote", "quote", "↩ " + message.replyTo.sender.name + ": " + message.replyTo.text);
    quote.setAttribute("data-testid", "reply-quote");
    var target = message.replyTo.id;
    quote.addEventListener("click", function () {
      var node = $("msg-" + target);
      if (node) node.scrollIntoView({ block: "center" });
    });
    item.appendChild(quote);
  }
  item.appendChild(renderText(message.text, message.mentions));
  var actions = el("div", "actions");
  var reply = el("button", "action", "Reply");
  reply.type = "button";
  reply.setAttribute("data-testid", "reply");
  reply.setAttribute("aria-label", "Reply to " + message.sender.name);
  reply.addEventListener("click", function () { startReply(message); });
  var react = el("button", "action", "React");
  react.type = "button";
  react.setAttribute("data-testid", "react");
  react.setAttribute("aria-label", "Add a reaction");
  react.setAttribute("aria-expanded", "false");
  var choices = picker(message, react);
  react.addEventListener("click", function () {
    choices.hidden = !choices.hidden;
    react.setAttribute("aria-expanded", choices.hidden ? "false" : "true");
  });
  actions.appendChild(reply);
  actions.appendChild(react);
  item.appendChild(actions);
  item.appendChild(choices);
  var reactions = el("div", "reactions");
  reactions.setAttribute("role", "group");
  reactions.setAttribute("aria-label", "Reactions");
  renderReactions(message, reactions);
  item.appendChild(reactions);
  return item;
}

function renderRooms() {
  var list = $("room-list");
  list.replaceChildren();
  state.rooms.forEach(function (room) {
    var item = el("li");
    var button = el("button", "room", roomLabel(room));
    button.type = "button";
    button.setAttribute("data-testid", "room");
    button.setAttribute("data-room", room.id);
    if (room.id === state.current) button.setAttribute("aria-current", "page");
    if (state.unread.has(room.id)) button.appendChild(el("span", "unread", " •"));
    button.addEventListener("click", function () { selectRoom(room.id); });
    item.appendChild(button);
    list.appendChild(item);
  });
}

function renderRoomHead() {
  var room = state.rooms.get(state.current);
  $("room-title").textContent = room ? roomLabel(room) : "";
  $("room-members").textContent = room ? room.members.map(function (m) { return m.name; }).join(", ") : "";
}

function renderMessages() {
  var list = $("messages");
  var messages = state.messages.get(state.current);
  list.replaceChildren();
  if (messages) messages.forEach(function (message) { list.appendChild(messageElement(message)); });
  list.scrollTop = list.scrollHeight;
}

function appendMessage(message) {
  var list = $("messages");
  var atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  list.appendChild(messageElement(message));
  while (list.children.length > 1000) list.removeChild(list.firstChild);
  if (atBottom || (state.me && message.sender.id === state.me.id)) list.scrollTop = list.scrollHeight;
}

function renderTyping() {
  var now = Date.now();
  var who = [];
  var typing = state.typing.get(state.current);
  if (typing) typing.forEach(function (until, userId) {
    if (until > now) who.push(userName(state.current, userId));
    else typing.delete(userId);
  });
  $("typing").textContent = who.length === 0 ? "" : who.join(", ") + (who.length === 1 ? " is typing…" : " are typing…");
}

function showError(text) {
  var toast = $("toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(function () { toast.hidden = true; }, 6000);
}
`;
