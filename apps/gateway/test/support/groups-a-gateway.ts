import type { MemoryPlatform, WireMessage, WireUser } from "@chorus/testkit";
import { afterAll, beforeAll } from "vitest";
import type { FakeOpenAI } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "./gateway-process.js";
import { createGroupsWorld, type GroupsConfigOptions, type GroupsWorld } from "./groups-a-world.js";

/** One world and one `chorus start --verbose` shared by the tests of a describe block. */
export interface GroupsHarness {
  readonly world: GroupsWorld;
  readonly platform: MemoryPlatform;
  readonly model: FakeOpenAI;
  readonly gateway: GatewayProcess;
  /** A user posts in a conversation (`extra`: mentions, replyToId). */
  say(
    conversationId: string,
    sender: WireUser,
    text: string,
    extra?: { mentions?: string[]; replyToId?: string },
  ): WireMessage;
  /** Stops the gateway and starts it again on the same home and config. */
  restart(): Promise<void>;
}

/**
 * Registers `beforeAll`/`afterAll` for the current describe: a fresh world, the config `configure`
 * returns, and the real gateway process started with `--verbose` (so debug log lines can be checked).
 */
export function useGroupsGateway(configure: (world: GroupsWorld) => GroupsConfigOptions): GroupsHarness {
  let world: GroupsWorld | undefined;
  let gateway: GatewayProcess | undefined;
  let config: Record<string, unknown> = {};
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use the harness inside a test`);
    return value;
  };
  const harness: GroupsHarness = {
    get world() {
      return need(world, "the world");
    },
    get platform() {
      return need(world, "the world").platform;
    },
    get model() {
      return need(world, "the world").model;
    },
    get gateway() {
      return need(gateway, "the gateway");
    },
    say(conversationId, sender, text, extra = {}) {
      return need(world, "the world").platform.userSends({ conversationId, senderId: sender.id, text, ...extra });
    },
    async restart() {
      const running = need(gateway, "the gateway");
      await running.stop();
      gateway = await startGatewayProcess({ config, home: running.home, args: ["--verbose"] });
    },
  };
  beforeAll(async () => {
    world = await createGroupsWorld();
    config = world.config(configure(world));
    gateway = await startGatewayProcess({ config, args: ["--verbose"] });
  });
  afterAll(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });
  return harness;
}
