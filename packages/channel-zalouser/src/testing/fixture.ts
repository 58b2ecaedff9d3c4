import { closedPort } from "@chorus/testkit";
import { writeSession } from "../session.js";
import { decryptAes, sessionKey } from "../zalo/crypto.js";
import { createFakeZalo, type FakeZalo } from "./fake-zalo.js";

/** Ann and Bob, and the group they share with the bot. */
export const ANN = { id: "3087412365498712001", name: "Ann Nguyen" };
export const BOB = { id: "3087412365498712002", name: "Bob Tran" };
export const TEAM = "5401238765432198765";

/** Short enough that a hung or closed Zalo fails a step in seconds. */
export const SHORT = { timeoutMs: 500, retries: 1, reconnectMinMs: 50, reconnectMaxMs: 400, connectTimeoutMs: 3_000 };

/** A started fake Zalo with Ann, Bob and the team group, and one linked session of the bot. */
export async function fakeWorld(options: Parameters<typeof createFakeZalo>[0] = {}) {
  const fake: FakeZalo = createFakeZalo(options);
  await fake.start();
  fake.addUser(ANN);
  fake.addUser(BOB);
  fake.addGroup({ id: TEAM, name: "Team Chorus", memberIds: [fake.bot.id, ANN.id, BOB.id] });
  const session = fake.linkedSession();
  /** The session's secrets, written out independently of the plugin's own list. */
  const secrets = [session.imei, ...session.cookies.map((c) => c.value)];
  const unreachable = `http://127.0.0.1:${await closedPort()}`;
  return {
    fake,
    session,
    secrets,
    config: (extra: Record<string, unknown> = {}) => fake.config({ ...SHORT, ...extra }),
    unreachableConfig: () => ({ apiBase: unreachable, ...SHORT }),
    link: (store: Parameters<typeof writeSession>[0]) => writeSession(store, session),
    /** A request's `params`, decrypted with a session key (`zpw_enk`). */
    decrypt: (params: string, enk: string) => decryptAes(sessionKey(enk), params),
  };
}
