/**
 * The webchat page's state and connection, as browser JavaScript (ES2020): identity in
 * localStorage, the WebSocket with reconnects, frames in and out, the composer and room picker.
 */
export const PAGE_STATE_SCRIPT = String.raw`
var KEY_NAME = "chorus.webchat.name";
var KEY_USER = "chorus.webchat.userId";
var KEY_ROOM = "chorus.webchat.room";
var token = new URLSearchParams(location.search).get("token");
var socketPath = document.querySelector('meta[name="webchat-socket"]').getAttribute("content");
var state = {
  me: null, bot: null, ws: null, retry: 0, stalls: 0, opened: false, current: null, replyTo: null, pendingJoin: null, toastTimer: 0,
  rooms: new Map(), messages: new Map(), joined: new Set(), unread: new Set(), typing: new Map(),
  typingSentAt: 0, typingOffTimer: 0
};

function load(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
function save(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) { /* private mode */ }
}

function send(frame) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) { showError("Not connected; try again in a moment."); return false; }
  state.ws.send(JSON.stringify(frame));
  return true;
}

function setStatus(text) { $("status").textContent = text; }

function connect() {
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath +
    (token ? "?token=" + encodeURIComponent(token) : "");
  var ws = new WebSocket(url);
  state.ws = ws;
  setStatus(state.stalls > 0 ? "Connecting again…" : "Connecting…");
  // A socket still connecting after this long is given up and opened again, waiting longer each time
  // (a proxy that holds the upgrade request would otherwise leave the page connecting for good).
  var stalled = setTimeout(function () {
    if (state.ws !== ws || ws.readyState !== WebSocket.CONNECTING) return;
    state.ws = null;
    state.stalls++;
    ws.close();
    connect();
  }, Math.min(30000, 5000 * Math.pow(2, state.stalls)));
  ws.addEventListener("open", function () {
    clearTimeout(stalled);
    state.retry = 0; state.stalls = 0; state.opened = true;
    hello();
  });
  ws.addEventListener("message", function (event) {
    var frame;
    try { frame = JSON.parse(event.data); } catch (e) { return; }
    handle(frame);
  });
  ws.addEventListener("close", function () {
    clearTimeout(stalled);
    if (state.ws !== ws) return;
    state.ws = null;
    state.joined.clear();
    var retry = function () {
      var delay = Math.min(10000, 500 * Math.pow(2, state.retry++));
      setStatus("Disconnected; reconnecting…");
      setTimeout(connect, delay);
    };
    // A socket that never opened may have been refused: ask the API whether the token is the problem.
    if (state.opened) { retry(); return; }
    fetch("/v1/channels", { headers: { authorization: "Bearer " + token } }).then(function (answer) {
      if (answer.status !== 401) { retry(); return; }
      setStatus((token ? "This link has a wrong token" : "This link has no token") +
        ": open the link that \"chorus token --webchat\" prints.");
    }, retry);
  });
}

function hello() {
  var name = load(KEY_NAME);
  if (!name) { setStatus("Choose a name to start"); askName(""); return; }
  var frame = { type: "hello", name: name };
  var userId = load(KEY_USER);
  if (userId) frame.userId = userId;
  send(frame);
}

function askName(problem) {
  $("name-error").textContent = problem;
  // Shown already (at page load, before the socket opened): keep what the person is typing.
  if ($("name-overlay").hidden) {
    $("name-overlay").hidden = false;
    $("name-input").value = load(KEY_NAME) || "";
  }
  $("name-input").focus();
}

function handle(frame) {
  switch (frame.type) {
    case "welcome": return welcome(frame);
    case "history":
      state.messages.set(frame.room, frame.messages.slice());
      if (frame.room === state.pendingJoin) { state.pendingJoin = null; selectRoom(frame.room); }
      else if (frame.room === state.current) renderMessages();
      return;
    case "message": return received(frame.message);
    case "reactions": return reacted(frame);
    case "typing": return typing(frame);
    case "room":
      state.rooms.set(frame.room.id, frame.room);
      renderRooms();
      if (frame.room.id === state.current) renderRoomHead();
      return;
    case "error":
      if (frame.frame === "hello") {
        if (/userId/.test(frame.message)) { save(KEY_USER, null); hello(); return; }
        askName(frame.message);
        return;
      }
      if (frame.frame === "join" && state.pendingJoin) { state.joined.delete(state.pendingJoin); state.pendingJoin = null; }
      showError(frame.message + (frame.hint ? " " + frame.hint : ""));
      return;
  }
}

function welcome(frame) {
  state.me = frame.you;
  state.bot = frame.bot;
  save(KEY_USER, frame.you.id);
  save(KEY_NAME, frame.you.name);
  $("name-overlay").hidden = true;
  $("me").textContent = "You are " + frame.you.name;
  setStatus("Connected");
  frame.rooms.forEach(function (room) { state.rooms.set(room.id, room); });
  var wanted = state.current || load(KEY_ROOM);
  var first = frame.rooms[0] && frame.rooms[0].id;
  frame.rooms.forEach(function (room) {
    var member = room.members.some(function (m) { return m.id === frame.you.id; });
    if (member && room.id !== wanted) join(room.id);
  });
  selectRoom(wanted && state.rooms.has(wanted) ? wanted : first);
}

function join(room) {
  if (state.joined.has(room)) return;
  if (send({ type: "join", room: room })) state.joined.add(room);
}

function selectRoom(room) {
  if (!room) return;
  state.current = room;
  save(KEY_ROOM, room);
  state.unread.delete(room);
  join(room);
  cancelReply();
  renderRooms();
  renderRoomHead();
  renderMessages();
  renderTyping();
}

function received(message) {
  var list = state.messages.get(message.room);
  if (!list) { list = []; state.messages.set(message.room, list); }
  list.push(message);
  if (list.length > 1000) list.splice(0, list.length - 1000);
  var typing = state.typing.get(message.room);
  if (typing) typing.delete(message.sender.id);
  if (message.room === state.current) { appendMessage(message); renderTyping(); }
  else { state.unread.add(message.room); renderRooms(); }
}

function reacted(frame) {
  var list = state.messages.get(frame.room) || [];
  var message = list.find(function (m) { return m.id === frame.messageId; });
  if (!message) return;
  message.reactions = frame.reactions;
  var node = $("msg-" + frame.messageId);
  if (node) renderReactions(message, node.querySelector(".reactions"));
}

function typing(frame) {
  var room = state.typing.get(frame.room);
  if (!room) { room = new Map(); state.typing.set(frame.room, room); }
  if (frame.on) room.set(frame.userId, Date.now() + 6000); else room.delete(frame.userId);
  if (frame.room === state.current) renderTyping();
}

function startReply(message) {
  state.replyTo = message;
  $("reply-text").textContent = "Replying to " + message.sender.name + ": " + message.text.slice(0, 80);
  $("reply-preview").hidden = false;
  $("composer").focus();
}

function cancelReply() {
  state.replyTo = null;
  $("reply-preview").hidden = true;
}

function sendTyping(on) {
  if (!state.current || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(JSON.stringify({ type: "typing", room: state.current, on: on }));
}

function submitMessage(event) {
  event.preventDefault();
  var box = $("composer");
  if (box.value.trim() === "" || !state.current) return;
  var frame = { type: "message", room: state.current, text: box.value };
  if (state.replyTo) frame.replyTo = state.replyTo.id;
  if (!send(frame)) return;
  box.value = "";
  cancelReply();
  clearTimeout(state.typingOffTimer);
  state.typingSentAt = 0;
  sendTyping(false);
}

function composing() {
  var now = Date.now();
  if (now - state.typingSentAt > 3000) { state.typingSentAt = now; sendTyping(true); }
  clearTimeout(state.typingOffTimer);
  state.typingOffTimer = setTimeout(function () { state.typingSentAt = 0; sendTyping(false); }, 4000);
}

$("name-form").addEventListener("submit", function (event) {
  event.preventDefault();
  var name = $("name-input").value.trim();
  if (!name) { $("name-error").textContent = "Please enter a name."; return; }
  save(KEY_NAME, name);
  $("name-overlay").hidden = true;
  if (state.ws && state.ws.readyState === WebSocket.OPEN) hello();
});
$("composer-form").addEventListener("submit", submitMessage);
$("composer").addEventListener("keydown", function (event) {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submitMessage(event);
});
$("composer").addEventListener("input", composing);
$("reply-cancel").addEventListener("click", cancelReply);
$("join-form").addEventListener("submit", function (event) {
  event.preventDefault();
  var name = $("join-input").value.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
  if (!name) return;
  $("join-input").value = "";
  if (state.rooms.has(name) && state.joined.has(name)) { selectRoom(name); return; }
  state.pendingJoin = name;
  send({ type: "join", room: name });
  state.joined.add(name);
});
setInterval(function () { if (state.typing.size > 0) renderTyping(); }, 1000);
if (!load(KEY_NAME)) askName("");
connect();
`;
