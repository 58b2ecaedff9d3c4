import { ChorusError, type ErrorCode, MAX_EMOJI_LENGTH, z } from "@chorus/core";
import { MAX_ATTACHMENTS } from "./media-kinds.js";
import type { ChatMessageView, ReactionView, RoomInfo, WebchatUser } from "./types.js";
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from "./validate.js";

const room = z.string().min(1, "room is empty").max(80, "room is longer than 80 characters");

const helloFrame = z
  .object({
    type: z.literal("hello"),
    name: z
      .string()
      .min(1, "name is empty")
      .max(MAX_NAME_LENGTH * 2),
    /** Resumes the identity kept in the browser's localStorage. */
    userId: z.string().min(1).max(80).optional(),
  })
  .strict();

const joinFrame = z.object({ type: z.literal("join"), room }).strict();

const location = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().max(200).optional(),
    address: z.string().max(300).optional(),
  })
  .strict();

const messageFrame = z
  .object({
    type: z.literal("message"),
    room,
    /** May be empty when the message carries media or a location. */
    text: z.string().max(MAX_MESSAGE_LENGTH, `text is longer than ${MAX_MESSAGE_LENGTH}`),
    replyTo: z.string().min(1).max(80).optional(),
    /** The ids of complete uploads (`POST /hooks/webchat/upload`) the message carries, in order. */
    attachments: z
      .array(z.string().min(1).max(80))
      .min(1, "attachments is empty")
      .max(MAX_ATTACHMENTS, `more than ${MAX_ATTACHMENTS} attachments`)
      .optional(),
    /** A place shared as a pin. */
    location: location.optional(),
  })
  .strict()
  .superRefine((frame, context) => {
    if (frame.text === "" && frame.attachments === undefined && frame.location === undefined) {
      context.addIssue({ code: "custom", path: ["text"], message: "text is empty" });
    }
  });

const reactFrame = z
  .object({
    type: z.literal("react"),
    messageId: z.string().min(1).max(80),
    emoji: z.string().min(1, "emoji is empty").max(MAX_EMOJI_LENGTH),
    remove: z.boolean().optional(),
  })
  .strict();

const typingFrame = z.object({ type: z.literal("typing"), room, on: z.boolean() }).strict();

/** Every frame a browser may send. */
export const clientFrameSchema = z.discriminatedUnion("type", [
  helloFrame,
  joinFrame,
  messageFrame,
  reactFrame,
  typingFrame,
]);

export type ClientFrame = z.output<typeof clientFrameSchema>;
export type ClientFrameType = ClientFrame["type"];

const CLIENT_FRAME_TYPES: readonly ClientFrameType[] = ["hello", "join", "message", "react", "typing"];

/** Every frame the server sends. */
export type ServerFrame =
  | { type: "welcome"; you: WebchatUser; bot: WebchatUser; rooms: RoomInfo[] }
  | { type: "history"; room: string; messages: ChatMessageView[] }
  | { type: "message"; message: ChatMessageView }
  | { type: "reactions"; room: string; messageId: string; reactions: readonly ReactionView[] }
  | { type: "typing"; room: string; userId: string; on: boolean }
  /** A room was created, joined, or a member renamed. */
  | { type: "room"; room: RoomInfo }
  | { type: "error"; code: ErrorCode; message: string; hint?: string; frame?: ClientFrameType };

/**
 * Parses one WebSocket text frame from a browser, or throws `E_INVALID_INPUT` naming what is
 * wrong (not JSON, unknown type, which field).
 */
export function parseClientFrame(raw: string): ClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new ChorusError("E_INVALID_INPUT", `frame is not JSON: ${(error as Error).message}`, {
      hint: 'Send one JSON object per frame, like {"type":"hello","name":"Ada"}.',
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ChorusError("E_INVALID_INPUT", "frame must be a JSON object with a type");
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !(CLIENT_FRAME_TYPES as readonly string[]).includes(type)) {
    throw new ChorusError("E_INVALID_INPUT", `unknown frame type ${JSON.stringify(type) ?? "(missing)"}`, {
      hint: `type must be one of: ${CLIENT_FRAME_TYPES.join(", ")}`,
    });
  }
  const parsed = clientFrameSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new ChorusError("E_INVALID_INPUT", `invalid ${type} frame: ${problems.join("; ")}`);
}

/** The error frame for a failure while handling a frame. */
export function errorFrame(error: ChorusError, frame?: ClientFrameType): ServerFrame {
  return {
    type: "error",
    code: error.code,
    message: error.message,
    ...(error.hint !== undefined ? { hint: error.hint } : {}),
    ...(frame !== undefined ? { frame } : {}),
  };
}
