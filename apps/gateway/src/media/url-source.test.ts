import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultMedia } from "../config/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { blockedAddress } from "./address-guard.js";
import { FileBlobs } from "./file-blobs.js";
import type { Resolve } from "./pinned-lookup.js";
import { mediaSettingsOf } from "./settings.js";
import { resolveMediaItem, type SourceOptions } from "./sources.js";
import { DbMediaStore } from "./store.js";

const MB = 1024 * 1024;

interface FakeSite {
  port: number;
  /** Requests it answered (a refused URL must leave this at 0). */
  hits: string[];
  close(): Promise<void>;
}

/** A web server on a loopback address that answers `handler` and counts what reached it. */
async function site(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<FakeSite> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const png = sampleMedium("image").bytes;
const servePng = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "image/png", "content-length": png.byteLength });
  res.end(png);
};

/** DNS answers a test chooses, in order per name (the last one repeats); counts the questions. */
function fakeDns(answers: Record<string, string[][]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const answer = list.length > 1 ? (list.shift() as string[]) : (list[0] as string[]);
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe("blockedAddress: what a url source may not reach", () => {
  it("names each private, loopback, link-local and special range, IPv6 forms of IPv4 included", () => {
    const cases: [string, string | undefined][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["10.0.0.1", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["172.32.0.1", undefined],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "link-local"],
      ["100.64.0.1", "shared (carrier-grade NAT)"],
      ["100.128.0.1", undefined],
      ["0.0.0.0", "this network"],
      ["224.0.0.251", "multicast"],
      ["255.255.255.255", "reserved"],
      ["93.184.216.34", undefined],
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fc00::1", "unique local"],
      ["fd12:3456::1", "unique local"],
      ["fe80::1", "link-local"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:a9fe:a9fe", "link-local"],
      ["::ffff:10.0.0.1", "private"],
      ["64:ff9b::10.0.0.1", "private"],
      ["64:ff9b::5db8:d822", undefined],
      ["2002:7f00:1::", "loopback"],
      ["2606:4700::1111", undefined],
      ["[::1]", "loopback"],
    ];
    for (const [address, label] of cases) expect([address, blockedAddress(address)]).toEqual([address, label]);
  });
});

describe("a url source (DESIGN §2.6 rule 1): fetched with a cap, never to a private address", () => {
  let test: TestState;
  let store: DbMediaStore;
  const sites: FakeSite[] = [];
  const options = (media: Record<string, unknown> = {}, resolve?: Resolve): SourceOptions => ({
    store,
    settings: {
      ...mediaSettingsOf(
        {
          ...defaultMedia(),
          retention: 86_400_000,
          maxExtractChars: 1,
          ...media,
        },
        test.home,
      ),
      ...(resolve ? { resolve } : {}),
    },
    maxBytes: MB,
    limitNote: "media are limited to 1 MB (media.maxBytes)",
  });
  const refusal = async (url: string, opts: SourceOptions) => {
    const error = await resolveMediaItem({ url }, 0, opts).catch((e: unknown) => e);
    if (!isChorusError(error)) throw new Error(`expected a refusal of ${url}, got ${String(error)}`);
    return error;
  };
  const mediaRows = async () => (await test.state.db.all("SELECT media_id FROM media")).length;

  beforeEach(async () => {
    test = await openTestState();
    store = new DbMediaStore(test.state.db, new FileBlobs(test.state.db, `${test.home}/media/blobs`), {
      retentionMs: 86_400_000,
    });
  });

  afterEach(async () => {
    for (const s of sites.splice(0)) await s.close();
    await test.close();
  });

  it("fetches an allowed host into the store, named by the URL's last segment", async () => {
    const files = await site("127.0.0.1", servePng);
    sites.push(files);
    const resolved = await resolveMediaItem(
      { url: `http://127.0.0.1:${files.port}/pics/Sunset%20Beach.png?size=large` },
      0,
      options({ allowHosts: [`127.0.0.1:${files.port}`] }),
    );
    expect(resolved.medium).toMatchObject({ kind: "image", mime: "image/png", size: png.byteLength });
    expect(resolved.filename).toBe("Sunset Beach.png");
    // Reached through an allowance, not a public address: not a link a recipient could open.
    expect(resolved.publicUrl).toBeUndefined();
    expect(files.hits).toEqual(["/pics/Sunset%20Beach.png?size=large"]);
  });

  it("refuses loopback, private, link-local and IPv6 loopback addresses, connecting to none", async () => {
    const local = await site("127.0.0.1", servePng);
    sites.push(local);
    const cases: [string, string][] = [
      [`http://127.0.0.1:${local.port}/a.png`, "the address 127.0.0.1 (loopback) is not allowed"],
      ["http://10.0.0.1/a.png", "the address 10.0.0.1 (private) is not allowed"],
      ["http://169.254.169.254/latest/meta-data/", "the address 169.254.169.254 (link-local) is not allowed"],
      [`http://[::1]:${local.port}/a.png`, "the address ::1 (loopback) is not allowed"],
      [`http://[::ffff:127.0.0.1]:${local.port}/a.png`, "the address ::ffff:7f00:1 (loopback) is not allowed"],
      [`http://localhost:${local.port}/a.png`, "(loopback) is not allowed"],
    ];
    for (const [url, message] of cases) {
      const error = await refusal(url, options());
      expect([url, error.code]).toEqual([url, "E_INVALID_INPUT"]);
      expect(error.message).toContain("media.0.url: ");
      expect(error.message).toContain(message);
      expect(error.hint).toContain("media.allowPrivateUrls");
    }
    expect(local.hits).toEqual([]);
    expect(await mediaRows()).toBe(0);
  });

  it("refuses a name when any of its addresses is private", async () => {
    const dns = fakeDns({ "cdn.test": [["93.184.216.34", "10.9.8.7"]], "meta.test": [["169.254.169.254"]] });
    expect((await refusal("http://cdn.test/a.png", options({}, dns))).message).toContain("10.9.8.7 (private)");
    expect((await refusal("http://meta.test/", options({}, dns))).message).toContain("169.254.169.254 (link-local)");
  });

  it("checks every redirect hop: an allowed host cannot send the fetch to a private one", async () => {
    const internal = await site("127.0.0.1", servePng);
    sites.push(internal);
    const targets = [
      `http://127.0.0.1:${internal.port}/secret.png`,
      "http://169.254.169.254/latest/meta-data/",
      `http://internal.test:${internal.port}/secret.png`,
    ];
    const redirector = await site("127.0.0.1", (req, res) => {
      res.writeHead(302, { location: targets[Number(req.url?.slice(1))] });
      res.end();
    });
    sites.push(redirector);
    const opts = options(
      { allowHosts: [`127.0.0.1:${redirector.port}`] },
      fakeDns({ "internal.test": [["127.0.0.1"]] }),
    );
    for (const [index, label] of [
      "127.0.0.1 (loopback)",
      "169.254.169.254 (link-local)",
      "127.0.0.1 (loopback)",
    ].entries()) {
      const error = await refusal(`http://127.0.0.1:${redirector.port}/${index}`, opts);
      expect(error.message).toContain(`the address ${label} is not allowed`);
    }
    expect(redirector.hits).toEqual(["/0", "/1", "/2"]);
    expect(internal.hits).toEqual([]);
  });

  it("connects to the address it checked: a DNS answer that changes after the check never reaches the socket", async () => {
    // The allowed server answers on 127.0.0.2, an internal one on 127.0.0.1, same port; the name's
    // first answer is the allowed address, every later one the internal address (DNS rebinding).
    const allowed = await site("127.0.0.2", servePng);
    sites.push(allowed);
    const internal = await site(
      "127.0.0.1",
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("internal secrets");
      },
      allowed.port,
    );
    sites.push(internal);
    const dns = fakeDns({ "rebind.test": [["127.0.0.2"], ["127.0.0.1"]] });
    const resolved = await resolveMediaItem(
      { url: `http://rebind.test:${allowed.port}/photo.png` },
      0,
      options({ allowHosts: [`127.0.0.2:${allowed.port}`] }, dns),
    );
    expect(resolved.medium.mime).toBe("image/png");
    expect(allowed.hits).toEqual(["/photo.png"]);
    expect(internal.hits).toEqual([]);
    expect(dns.asked).toEqual(["rebind.test"]);
    // Asked again, the name now points inside: refused.
    const again = await refusal(
      `http://rebind.test:${allowed.port}/photo.png`,
      options({ allowHosts: [`127.0.0.2:${allowed.port}`] }, dns),
    );
    expect(again.message).toContain("127.0.0.1 (loopback) is not allowed");
    expect(internal.hits).toEqual([]);
  });

  it("media.allowPrivateUrls lifts the guard", async () => {
    const local = await site("127.0.0.1", servePng);
    sites.push(local);
    const resolved = await resolveMediaItem(
      { url: `http://localhost:${local.port}/x.png` },
      0,
      options({ allowPrivateUrls: true }),
    );
    expect(resolved.medium.size).toBe(png.byteLength);
  });

  it("over the cap: a declared length fails before reading, a longer body where it passes the cap; nothing is stored", async () => {
    const big = Buffer.alloc(2 * MB, 7);
    const files = await site("127.0.0.1", (req, res) => {
      if (req.url === "/declared") res.writeHead(200, { "content-length": big.byteLength });
      else res.writeHead(200, { "transfer-encoding": "chunked" });
      res.end(big);
    });
    sites.push(files);
    const opts = options({ allowHosts: [`127.0.0.1:${files.port}`] });
    const declared = await refusal(`http://127.0.0.1:${files.port}/declared`, opts);
    expect([declared.code, declared.message]).toEqual([
      "E_TOO_LARGE",
      "media.0 is 2 MB; media are limited to 1 MB (media.maxBytes).",
    ]);
    const streamed = await refusal(`http://127.0.0.1:${files.port}/streamed`, opts);
    expect([streamed.code, streamed.message]).toEqual([
      "E_TOO_LARGE",
      "media.0 is over 1 MB; media are limited to 1 MB (media.maxBytes).",
    ]);
    expect(await mediaRows()).toBe(0);
  });

  it("an answer that is not 2xx fails, naming the item and the status but never the URL", async () => {
    const files = await site("127.0.0.1", (_req, res) => {
      res.writeHead(404);
      res.end();
    });
    sites.push(files);
    const error = await refusal(
      `http://127.0.0.1:${files.port}/gone.png?token=s3cret`,
      options({ allowHosts: [`127.0.0.1:${files.port}`] }),
    );
    expect(error.message).toBe("media.0.url: fetching the URL failed: HTTP 404.");
  });
});
