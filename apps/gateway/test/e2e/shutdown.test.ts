import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { faults } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

describe("graceful shutdown", () => {
  let world: ModelWorld | undefined;
  let gateway: GatewayProcess | undefined;
  afterEach(async () => {
    await gateway?.stop("SIGKILL");
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("SIGTERM lets the in-flight turn finish and commit, then exits 0", async () => {
    world = await createModelWorld();
    world.model.script({ text: "answered before stopping" });
    world.model.inject(faults.delay({ method: "POST" }, 1500));
    gateway = await startGatewayProcess({ config: world.config() });
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "are you there?" });
    await world.model.server.waitForRequest({ method: "POST", path: "/v1/chat/completions" }, { timeoutMs: 10_000 });

    const code = await gateway.stop("SIGTERM");

    expect(code).toBe(0);
    expect(gateway.output()).toContain("SIGTERM: finishing in-flight turns and stopping channels");
    expect(gateway.output()).toContain("Stopped.");
    expect(world.platform.messagesIn("dm-ann").map((m) => m.text)).toContain("answered before stopping");
    const sessions = JSON.parse(
      await readFile(join(gateway.home, "agents", "main", "sessions", "sessions.json"), "utf8"),
    );
    expect(sessions.sessions["agent:main:memory:dm:ann"].turns).toBe(1);
  });
});
