import { z } from "zod";

const storedUser = z.object({ id: z.string().min(1), name: z.string() }).strict();

const storedMessage = z
  .object({
    id: z.string().min(1),
    senderId: z.string().min(1),
    /** The sender's name when they wrote it, shown if they are no longer known. */
    senderName: z.string(),
    text: z.string(),
    ts: z.number(),
    replyTo: z.string().optional(),
    mentions: z.array(z.string()),
    /** `[emoji, userIds]` in the order the emoji were first added. */
    reactions: z.array(z.tuple([z.string().min(1), z.array(z.string().min(1))])),
  })
  .strict();

const storedRoom = z
  .object({
    id: z.string().min(1),
    members: z.array(z.string().min(1)),
    messages: z.array(storedMessage),
  })
  .strict();

/** The webchat's persisted state: people, rooms, messages and reactions. */
export const webchatStateSchema = z
  .object({
    version: z.literal(1),
    users: z.array(storedUser),
    rooms: z.array(storedRoom),
  })
  .strict();

export type WebchatState = z.output<typeof webchatStateSchema>;
export type StoredMessage = z.output<typeof storedMessage>;
export type StoredRoom = z.output<typeof storedRoom>;

/** The file name of the state inside the hub's state directory. */
export const STATE_FILE = "webchat.json";
