import { ChorusError, isChorusError, type Logger, toChorusError } from "@chorus/core";
import type { WebSocket } from "ws";
import type { WebchatHub } from "./hub.js";
import { type ClientFrame, type ClientFrameType, errorFrame, parseClientFrame, type ServerFrame } from "./protocol.js";
import type { HubEvent, WebchatUser } from "./types.js";
import { placeOf } from "./validate.js";

/** Past this many unsent bytes a client is too slow to keep up and is dropped. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** One browser connection: its identity, the rooms it watches, and its frames. */
export class SocketSession {
  /** Set by the heartbeat before a ping, cleared by the pong. */
  alive = true;
  #user: WebchatUser | undefined;
  readonly #rooms = new Set<string>();

  constructor(
    readonly ws: WebSocket,
    readonly hub: WebchatHub,
    private readonly logger: Logger,
  ) {}

  /** Handles one text frame; failures become an error frame, the socket stays open. */
  handle(raw: string): void {
    let type: ClientFrameType | undefined;
    try {
      const frame = parseClientFrame(raw);
      type = frame.type;
      this.#dispatch(frame);
    } catch (error) {
      if (!isChorusError(error)) this.logger.warn({ err: error, frame: type }, "webchat frame failed");
      this.send(errorFrame(toChorusError(error, "webchat"), type));
    }
  }

  /** Passes on a hub event when it concerns this connection. */
  deliver(event: HubEvent): void {
    const user = this.#user;
    if (!user) return;
    switch (event.type) {
      case "message":
        if (this.#rooms.has(event.message.room)) this.send({ type: "message", message: event.message });
        return;
      case "reactions":
        if (this.#rooms.has(event.room)) {
          const { room, messageId, reactions } = event;
          this.send({ type: "reactions", room, messageId, reactions });
        }
        return;
      case "typing":
        if (this.#rooms.has(event.room) && event.userId !== user.id) {
          this.send({ type: "typing", room: event.room, userId: event.userId, on: event.on });
        }
        return;
      case "room":
        if (this.#rooms.has(event.room.id) || event.room.members.some((m) => m.id === user.id)) {
          this.send({ type: "room", room: event.room });
        }
        return;
    }
  }

  send(frame: ServerFrame): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger.warn({ buffered: this.ws.bufferedAmount }, "webchat client too slow; dropping it");
      this.ws.terminate();
      return;
    }
    this.ws.send(JSON.stringify(frame));
  }

  #dispatch(frame: ClientFrame): void {
    if (frame.type === "hello") {
      this.#hello(frame.name, frame.userId);
      return;
    }
    const user = this.#user;
    if (!user) {
      throw new ChorusError("E_INVALID_INPUT", `say hello before sending a ${frame.type} frame`, {
        hint: 'Send {"type":"hello","name":"…"} first.',
      });
    }
    switch (frame.type) {
      case "join": {
        const room = this.hub.join(frame.room, user.id);
        this.#rooms.add(room.id);
        this.send({ type: "history", room: room.id, messages: this.hub.messagesIn(room.id) });
        return;
      }
      case "message":
        this.#joined(frame.room);
        this.#post(user, frame);
        return;
      case "react":
        this.hub.react(frame.messageId, user.id, frame.emoji, frame.remove !== true);
        return;
      case "typing":
        this.#joined(frame.room);
        this.hub.setTyping(frame.room, user.id, frame.on);
        return;
    }
  }

  /** Posts a person's message with the uploads it names (put back when it cannot be posted). */
  #post(user: WebchatUser, frame: Extract<ClientFrame, { type: "message" }>): void {
    const { uploads } = this.hub;
    if (frame.attachments && !uploads) {
      throw new ChorusError("E_UNSUPPORTED", "this webchat keeps no media: send text only");
    }
    const media = frame.attachments && uploads ? uploads.claim(frame.attachments) : [];
    try {
      this.hub.post(frame.room, user.id, frame.text, {
        ...(frame.replyTo !== undefined ? { replyTo: frame.replyTo } : {}),
        ...(media.length > 0 ? { media } : {}),
        ...(frame.location ? { location: placeOf(frame.location) } : {}),
      });
    } catch (error) {
      uploads?.release(media);
      throw error;
    }
  }

  #hello(name: string, userId: string | undefined): void {
    const user = this.hub.identify(name, userId ?? this.#user?.id);
    if (user.id !== this.#user?.id) this.#rooms.clear();
    this.#user = user;
    this.send({ type: "welcome", you: user, bot: this.hub.bot, rooms: this.hub.roomsFor(user.id) });
  }

  #joined(room: string): void {
    if (!this.#rooms.has(room)) {
      throw new ChorusError("E_INVALID_INPUT", `join room "${room}" before writing in it`, {
        hint: `Send {"type":"join","room":${JSON.stringify(room)}} first.`,
      });
    }
  }
}
