/** The webchat page's stylesheet: light and dark, narrow and wide screens. */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --panel: #fff; --text: #1d2330; --muted: #5d6778;
  --accent: #3b5bdb; --mine: #e7ecff; --line: #dfe3ea; --chip: #eef1f6; --mention: #fff3bf; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14171c; --panel: #1c2027; --text: #e6e9ef; --muted: #9aa3b2; --accent: #8ea2ff;
    --mine: #26305a; --line: #2d333d; --chip: #262b34; --mention: #5c4a00; }
}
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text);
  display: flex; flex-direction: column; height: 100dvh; overflow: hidden; }
button { font: inherit; color: inherit; cursor: pointer; }
input, textarea { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line);
  border-radius: 8px; padding: 8px 10px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.top { display: flex; align-items: baseline; gap: 16px; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
.top h1 { font-size: 18px; margin: 0; }
#status, #me { color: var(--muted); font-size: 13px; }
#me { margin-left: auto; }
.layout { flex: 1; display: flex; min-height: 0; }
.rooms { width: 220px; padding: 12px; border-right: 1px solid var(--line); background: var(--panel); overflow-y: auto; }
.rooms h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 8px; }
.rooms ul { list-style: none; margin: 0 0 16px; padding: 0; }
.room { width: 100%; text-align: left; background: none; border: 0; border-radius: 6px; padding: 6px 8px; }
.room[aria-current="page"] { background: var(--mine); font-weight: 600; }
.unread { color: var(--accent); }
#join-form { display: flex; flex-direction: column; gap: 6px; font-size: 13px; }
#join-form button, .composer button, .name-box button { border: 0; border-radius: 8px; padding: 8px 14px; background: var(--accent); color: #fff; }
.chat { flex: 1; display: flex; flex-direction: column; min-width: 0; min-height: 0; }
.room-head { padding: 10px 16px; border-bottom: 1px solid var(--line); }
.room-head h2 { font-size: 16px; margin: 0; }
.room-head p { margin: 2px 0 0; color: var(--muted); font-size: 13px; }
.messages { flex: 1; overflow-y: auto; list-style: none; margin: 0; padding: 12px 16px; display: flex; flex-direction: column; gap: 10px; }
.message { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 8px 12px; max-width: 46rem; }
.message.mine { background: var(--mine); align-self: flex-end; }
.message.mentions-me { border-color: var(--accent); }
.head { display: flex; gap: 8px; align-items: baseline; }
.time { color: var(--muted); font-size: 12px; }
.from-bot .sender::after { content: " · bot"; color: var(--muted); font-weight: normal; font-size: 12px; }
.text { margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.mention { background: var(--mention); border-radius: 4px; padding: 0 2px; }
.mention-me { font-weight: 600; }
.quote { margin: 4px 0; padding: 2px 8px; border-left: 3px solid var(--accent); color: var(--muted); font-size: 13px; cursor: pointer;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.actions { display: flex; gap: 4px; }
.action { background: none; border: 0; color: var(--muted); font-size: 12px; padding: 2px 6px; border-radius: 6px; }
.action:hover { background: var(--chip); }
.picker { display: flex; gap: 2px; margin-top: 4px; }
.pick { background: var(--chip); border: 0; border-radius: 6px; padding: 2px 6px; font-size: 16px; }
.reactions { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.reactions:empty { display: none; }
.chip { background: var(--chip); border: 1px solid var(--line); border-radius: 999px; padding: 1px 8px; font-size: 13px; }
.chip-mine { border-color: var(--accent); }
.typing { min-height: 1.4em; margin: 0; padding: 0 16px; color: var(--muted); font-size: 13px; font-style: italic; }
.reply-preview { display: flex; gap: 8px; align-items: center; margin: 0 16px; padding: 4px 8px; border-left: 3px solid var(--accent); font-size: 13px; color: var(--muted); }
.reply-preview button { background: none; border: 0; font-size: 16px; }
.composer { display: flex; gap: 8px; padding: 10px 16px 14px; }
.composer textarea { flex: 1; resize: vertical; min-height: 44px; }
.overlay { position: fixed; inset: 0; background: rgb(0 0 0 / 45%); display: grid; place-items: center; }
.overlay[hidden], .reply-preview[hidden], .picker[hidden], .toast[hidden] { display: none; }
.name-box { background: var(--panel); padding: 24px; border-radius: 12px; display: flex; flex-direction: column; gap: 10px; min-width: 280px; }
.name-box h2 { margin: 0; }
.error { color: #c92a2a; margin: 0; min-height: 1.2em; font-size: 13px; }
.toast { position: fixed; bottom: 16px; left: 50%; transform: translateX(-50%); background: #c92a2a; color: #fff; padding: 8px 14px; border-radius: 8px; }
@media (max-width: 640px) {
  /* A phone: the header, one row of rooms (scrolling sideways) with the join box, the messages
     (the only part that scrolls), and the composer always on screen. */
  .top { flex-wrap: wrap; gap: 2px 12px; padding: 8px 12px; }
  .layout { flex-direction: column; }
  .rooms { width: auto; flex: none; display: flex; align-items: center; gap: 8px; padding: 6px 12px;
    border-right: 0; border-bottom: 1px solid var(--line); overflow: hidden; }
  .rooms h2, #join-form label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .rooms ul { display: flex; gap: 4px; margin: 0; flex: 1; min-width: 0; overflow-x: auto; }
  .room { width: auto; white-space: nowrap; }
  #join-form { flex-direction: row; align-items: center; flex: none; }
  #join-input { width: 7.5rem; padding: 6px 8px; }
  #join-form button { padding: 6px 10px; }
  .room-head { padding: 6px 12px; }
  .messages { padding: 8px 12px; }
  .composer { padding: 8px 12px 10px; }
  .composer textarea { resize: none; min-height: 40px; }
}
`;
