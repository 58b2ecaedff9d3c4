import { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "./testing/index.js";

/** People of the test guild. */
export const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };
export const BOB = { id: "700000000000000002", username: "bob", global_name: "Bob" };

/** Short timeouts, no REST retries: a test that meets a fault ends quickly. */
export const FAST = {
  retries: 0,
  timeoutMs: 1_000,
  maxRetryAfterMs: 1_000,
  readyTimeoutMs: 3_000,
  reconnectMinMs: 50,
  reconnectMaxMs: 400,
};

/** A started fake Discord with guild 100 (#general = 200) where Ann and Bob are members. */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const fake = createFakeDiscord(options);
  await fake.start();
  fake.addGuild({ id: "100", name: "Team", channels: [{ id: "200", name: "general" }] });
  fake.addMember("100", ANN);
  fake.addMember("100", BOB);
  return fake;
}
