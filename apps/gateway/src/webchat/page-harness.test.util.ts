import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import type { Browser } from "playwright-core";
import { launchChromium } from "../testing/index.js";
import { type WebchatPageAssets, webchatPage, webchatPageCsp } from "./page.js";
import { buildPageAssets } from "./page-build.test.util.js";
import type { WebchatSite } from "./site.js";
import { attachWebchatSocket, type WebchatSocket } from "./socket.js";
import { closeServer, listen, tempDir } from "./support.test.util.js";

/** What the webchat's browser tests run against: the page and socket served as the gateway serves them, a running instance, Chromium. */
export interface PageHarness {
  readonly baseUrl: string;
  readonly server: Server;
  readonly running: RunningChannel;
  readonly browser: Browser;
  /** Answers `GET /` with the page (anything else 404), for another server in front of the socket. */
  readonly servePage: (req: IncomingMessage, res: ServerResponse) => void;
  /** Stops all of it (the browser first, the instance last) and removes the state dir. */
  close(): Promise<void>;
}

export interface PageHarnessOptions {
  site: WebchatSite;
  plugin: Parameters<typeof startChannel>[0];
  config: Record<string, unknown>;
  token: string;
  /** Prefix of the instance's temp state dir. */
  name: string;
  /** Answers what is not the page (the webchat's routes), or returns false to leave it to the page's 404. */
  route?(req: IncomingMessage, res: ServerResponse, running: RunningChannel): boolean;
}

/** Starts the instance, the page at `/` (as built from src/webchat/page/ now) with its CSP, the socket and Chromium. */
export async function startPageHarness(options: PageHarnessOptions): Promise<PageHarness> {
  const { site } = options;
  const temp = await tempDir(options.name);
  const assets: WebchatPageAssets = await buildPageAssets();
  const running = await startChannel(options.plugin, { config: options.config, stateDir: temp.dir });
  const servePage = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.split("?")[0] !== "/") return void res.writeHead(404).end();
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": webchatPageCsp(assets),
    });
    res.end(webchatPage({ title: site.title }, assets));
  };
  const { server } = await listen((req, res) => {
    if (!options.route?.(req, res, running)) servePage(req, res);
  });
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const socket: WebchatSocket = attachWebchatSocket(server, site, { token: options.token });
  const browser = await launchChromium();
  return {
    baseUrl,
    server,
    running,
    browser,
    servePage,
    async close() {
      await browser.close();
      await socket.close();
      await closeServer(server);
      await running.stop();
      await temp.cleanup();
    },
  };
}
