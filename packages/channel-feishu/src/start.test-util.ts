import { type RunningChannel, startChannel } from "@chorus/testkit";
import { feishuChannel } from "./index.js";
import {
  createFakeFeishu,
  type FakeChat,
  type FakeFeishu,
  type FakeFeishuOptions,
  type FakeUser,
} from "./testing/index.js";

/** A fake Feishu with a team chat (Ann and Bob), and the channel running against it. */
export interface FeishuHarness {
  fake: FakeFeishu;
  running: RunningChannel;
  ann: FakeUser;
  bob: FakeUser;
  team: FakeChat;
  close(): Promise<void>;
}

/** Feishu's intervals are minutes; tests have the fake tell the SDK to ping and reconnect quickly. */
export const QUICK_CLIENT_CONFIG = { PingInterval: 1, ReconnectInterval: 0.1, ReconnectNonce: 0 };

/** Feishu pushes an unacknowledged event again after 15 s, 5 min, 1 h and 6 h; the fake in tests much sooner. */
export const QUICK_RETRY_DELAYS_MS = [20, 50, 100, 200];

/** The fake started, its chat set up, and the channel started on it (short timeouts, one retry). */
export async function startFeishu(
  options: { fake?: FakeFeishuOptions; config?: Record<string, unknown>; stateDir?: string } = {},
): Promise<FeishuHarness> {
  const fake = createFakeFeishu({
    clientConfig: QUICK_CLIENT_CONFIG,
    ackTimeoutMs: 300,
    retryDelaysMs: QUICK_RETRY_DELAYS_MS,
    ...options.fake,
  });
  await fake.start();
  const ann = fake.addUser("Ann");
  const bob = fake.addUser("Bob");
  const team = fake.addChat({ name: "Team", members: [ann, bob] });
  const config = fake.config({ retries: 1, timeoutMs: 2_000, reconnectMinMs: 50, ...options.config });
  const running = await startChannel(feishuChannel, {
    config,
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
  });
  return {
    fake,
    running,
    ann,
    bob,
    team,
    async close() {
      await running.stop();
      await fake.close();
    },
  };
}

/** The requests the fake answered, as `METHOD path?query → status`, for those whose path matches. */
export function requestLines(fake: FakeFeishu, path: RegExp): string[] {
  return fake.server.requests
    .filter((r) => path.test(r.path))
    .map((r) => {
      const query = new URLSearchParams(r.query as Record<string, string>).toString();
      return `${r.method} ${r.path}${query ? `?${query}` : ""} → ${r.status}`;
    });
}
