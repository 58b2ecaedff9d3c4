import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { unbundledModules } from "../support/bundle-sources.js";
import { GATEWAY_DIR, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { moduleRecords } from "../support/loading-plugins.js";
import { connectWebchat } from "../support/webchat-client.js";

/** Code of other commands: the plugin installer, `chorus doctor`, `chorus channels`, `chorus channels login`. */
const OTHER_COMMANDS = /\/dist\/(plugins\/(install|npm)|cli\/(doctor|channels|login))\.js$/;

/** The WebSocket library, loaded by the first browser that connects to the webchat. */
const WS_MODULES = /\/node_modules\/ws\//;

/** The gateway's own built modules (tsc's output; the CLI bundle is under its bin/). */
const GATEWAY_DIST = `${pathToFileURL(join(GATEWAY_DIR, "dist")).href}/`;

describe("chorus start, webchat only: what is loaded at start and what on use", () => {
  let gateway: GatewayProcess | undefined;

  afterEach(async () => {
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
    gateway = undefined;
  });

  it("serves the webchat without other commands' code", async () => {
    const home = await mkdtemp(join(tmpdir(), "chorus-start-modules-"));
    const records = moduleRecords(home);
    gateway = await startGatewayProcess({ home, noConfig: true, args: ["--port", "0"], env: records.env });
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);

    // The CLI is a bundle (dist/bin/): its files' source maps name the modules each one holds.
    const loaded = await records.modules();
    const ownModules = loaded.filter((url) => url.startsWith(GATEWAY_DIST));
    expect(ownModules.length).toBeGreaterThan(0);
    expect(ownModules.filter((url) => !url.startsWith(`${GATEWAY_DIST}bin/`))).toEqual([]);
    const atStart = await unbundledModules(loaded);
    expect(atStart.length).toBeGreaterThan(50);
    expect(atStart).toContain(`${GATEWAY_DIST}cli/start.js`);
    expect(atStart).toContain(`${GATEWAY_DIST}webchat/plugin.js`);
    expect(atStart.filter((url) => OTHER_COMMANDS.test(url))).toEqual([]);
    expect(loaded.filter((url) => WS_MODULES.test(url))).toEqual([]);

    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    expect(ada.you.name).toBe("Ada");
    await ada.close();
    expect((await records.modules()).filter((url) => WS_MODULES.test(url)).length).toBeGreaterThan(0);
  });
});
