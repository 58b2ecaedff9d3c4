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

/** The metrics library, loaded by the first scrape of `/metrics`. */
const METRICS_MODULES = /\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?prom-client\//;

/** The PDF reader, loaded by the first PDF an agent is shown. */
const PDF_MODULES = /\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?unpdf\//;

/** The media sniffer and the multipart parser, loaded by the first medium stored and the first multipart upload. */
const MEDIA_MODULES = /\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(file-type|@fastify\/busboy)\//;

/** Libraries a start runs that are bundled (zod into core's file; the HTTP server, logger and command line into the CLI's). */
const BUNDLED_MODULES =
  /\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(zod|hono|@hono\/node-server|pino|commander)\//;

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
    expect(loaded.filter((url) => BUNDLED_MODULES.test(url))).toEqual([]);
    expect(loaded.filter((url) => WS_MODULES.test(url))).toEqual([]);
    expect(loaded.filter((url) => METRICS_MODULES.test(url))).toEqual([]);
    expect(loaded.filter((url) => MEDIA_MODULES.test(url))).toEqual([]);
    expect(loaded.filter((url) => PDF_MODULES.test(url))).toEqual([]);
    expect(atStart).not.toContain(`${GATEWAY_DIST}metrics/exposition.js`);

    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    expect(ada.you.name).toBe("Ada");
    await ada.close();
    expect((await records.modules()).filter((url) => WS_MODULES.test(url)).length).toBeGreaterThan(0);

    const scrape = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(scrape.status).toBe(200);
    expect((await records.modules()).filter((url) => METRICS_MODULES.test(url)).length).toBeGreaterThan(0);

    const form = new FormData();
    form.append("file", new Blob(["a note"]), "note.txt");
    const stored = await fetch(`${gateway.url}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.token}` },
      body: form,
    });
    expect(stored.status).toBe(200);
    const media = (await records.modules()).filter((url) => MEDIA_MODULES.test(url));
    expect(media.some((url) => url.includes("/file-type/"))).toBe(true);
    expect(media.some((url) => url.includes("/busboy/"))).toBe(true);
  });
});
