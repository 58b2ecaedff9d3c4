import { type ChannelStore, ChorusError, type JsonValue, MAX_STORE_VALUE_BYTES, z } from "@chorus/core";

/** The store key of the linked session. */
export const SESSION_KEY = "session";

/** One cookie as zca-js' jar writes it (`tough-cookie`'s JSON): at least its name and value. */
const cookieSchema = z.looseObject({ key: z.string().min(1), value: z.string(), domain: z.string().optional() });

const sessionSchema = z.object({
  /** The device id Zalo knows this login by; it must stay with its cookies. */
  imei: z.string().min(1),
  /** The browser the session was linked with; Zalo ties the cookies to it. */
  userAgent: z.string().min(1),
  language: z.string().min(1),
  cookies: z.array(cookieSchema).min(1),
  /** The account's Zalo user id and display name, as the login said. */
  uid: z.string().min(1),
  name: z.string().optional(),
  /** When it was linked (ISO 8601): a new login is a new session, also for the same account. */
  linkedAt: z.string().min(1),
});

/**
 * What `chorus channels login zalouser` stores and the running instance logs in with. It lives in
 * `ctx.store` (one entry): a Zalo Web session is a dozen cookies, a few KiB, far below the store's
 * 64 KiB limit, so no file in `stateDir` is needed.
 */
export type ZaloSession = z.infer<typeof sessionSchema>;

/** The stored session, or undefined when the account is not linked. Throws `E_AUTH` naming what is wrong with a damaged one. */
export async function readSession(store: Pick<ChannelStore, "get">): Promise<ZaloSession | undefined> {
  const value = await store.get(SESSION_KEY);
  if (value === undefined) return undefined;
  const parsed = sessionSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  throw new ChorusError("E_AUTH", `the stored Zalo session cannot be read (${problems})`, {
    hint: "Link the account again with `chorus channels login zalouser`.",
    details: { sessionEnded: true },
  });
}

/** Stores a linked session, replacing the last one. */
export async function writeSession(store: ChannelStore, session: ZaloSession): Promise<void> {
  const value = sessionSchema.parse(session) as unknown as JsonValue;
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > MAX_STORE_VALUE_BYTES) {
    // Never seen from Zalo (a session is a few KiB): say so rather than lose the login silently.
    throw new ChorusError(
      "E_PLATFORM",
      `the Zalo session is ${bytes} bytes, more than the store keeps (${MAX_STORE_VALUE_BYTES})`,
    );
  }
  await store.set(SESSION_KEY, value);
}

/** The secret values of a session: every cookie value and the imei. */
export const sessionSecrets = (session: ZaloSession): string[] => [
  session.imei,
  ...session.cookies.map((cookie) => cookie.value),
];
