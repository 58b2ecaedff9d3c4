import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultMedia } from "../config/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { FileBlobs } from "./file-blobs.js";
import { LINK_LIFETIME_MS, linkKey, MediaLinks } from "./links.js";
import { mediaSettingsOf } from "./settings.js";
import { resolveMediaItem, type SourceOptions } from "./sources.js";
import { DbMediaStore } from "./store.js";

const MB = 1024 * 1024;

describe("the path, data and mediaId sources (DESIGN §2.6 rule 1)", () => {
  let test: TestState;
  let options: SourceOptions;
  let dir: string;
  const failure = async (item: Parameters<typeof resolveMediaItem>[0]) => {
    const error = await resolveMediaItem(item, 2, options).catch((e: unknown) => e);
    if (!isChorusError(error)) throw new Error(`expected a typed error, got ${String(error)}`);
    return error;
  };

  beforeEach(async () => {
    test = await openTestState();
    const settings = mediaSettingsOf(
      {
        ...defaultMedia(),
        retention: 86_400_000,
        maxExtractChars: 1,
      },
      test.home,
    );
    dir = settings.dir;
    await mkdir(join(dir, "sub"), { recursive: true });
    const store = new DbMediaStore(test.state.db, new FileBlobs(test.state.db, settings.blobsDir), {
      retentionMs: 86_400_000,
    });
    options = { store, settings, maxBytes: MB, limitNote: "media are limited to 1 MB (media.maxBytes)" };
  });

  afterEach(async () => {
    await test.close();
  });

  it("path: a file in media.dir, relative or absolute inside it, named by its file name", async () => {
    await writeFile(join(dir, "sub", "chart.png"), sampleMedium("image").bytes);
    const relative = await resolveMediaItem({ path: "sub/chart.png" }, 0, options);
    expect(relative.medium).toMatchObject({ kind: "image", filename: "chart.png" });
    expect(relative.filename).toBe("chart.png");
    const absolute = await resolveMediaItem({ path: join(dir, "sub", "chart.png"), filename: "Q3.png" }, 0, options);
    expect(absolute.filename).toBe("Q3.png");
    const dotted = await resolveMediaItem({ path: "sub/../sub/chart.png" }, 0, options);
    expect(dotted.medium.sha256).toBe(relative.medium.sha256);
  });

  it("path: .. and links that lead out of media.dir are refused, as are directories and missing files", async () => {
    await writeFile(join(test.home, "chorus.json"), '{ gateway: { auth: { token: "secret-secret-secret" } } }');
    await symlink(join(test.home, "chorus.json"), join(dir, "innocent.png"));
    await symlink(test.home, join(dir, "home"));
    for (const path of ["../../chorus.json", "innocent.png", "home/chorus.json", join(test.home, "chorus.json")]) {
      const error = await failure({ path });
      expect([path, error.code]).toEqual([path, "E_INVALID_INPUT"]);
      expect(error.message).toBe(`media.2.path: ${JSON.stringify(path)} is outside the media directory (media.dir).`);
    }
    expect((await failure({ path: "sub" })).message).toBe('media.2.path: "sub" is not a file.');
    expect((await failure({ path: "nope.png" })).message).toBe(
      'media.2.path: there is no file "nope.png" in the media directory.',
    );
    expect(await test.state.db.all("SELECT media_id FROM media")).toEqual([]);
  });

  it("path: a file over the cap is E_TOO_LARGE before anything is read", async () => {
    await writeFile(join(dir, "big.bin"), Buffer.alloc(1.5 * MB));
    const error = await failure({ path: "big.bin" });
    expect([error.code, error.message]).toEqual([
      "E_TOO_LARGE",
      "media.2 is 1.5 MB; media are limited to 1 MB (media.maxBytes).",
    ]);
  });

  it("data: base64 up to 512 KiB; more points to POST /v1/media; not base64 is refused", async () => {
    const pdf = sampleMedium("file");
    const resolved = await resolveMediaItem(
      { data: Buffer.from(pdf.bytes).toString("base64"), filename: "doc.pdf" },
      0,
      options,
    );
    expect(resolved.medium).toMatchObject({ kind: "file", mime: "application/pdf", filename: "doc.pdf" });
    const tooMuch = await failure({ data: Buffer.alloc(600 * 1024).toString("base64") });
    expect(tooMuch.code).toBe("E_TOO_LARGE");
    expect(tooMuch.message).toBe("media.2.data holds 600 KB; inline data is limited to 512 KB.");
    expect(tooMuch.hint).toContain("POST /v1/media");
    expect((await failure({ data: "not base64!" })).message).toBe("media.2.data is not base64.");
  });

  it("mediaId: a medium of the store, sent under its name or the one given; an unknown id is refused", async () => {
    const first = await resolveMediaItem(
      { data: Buffer.from(sampleMedium("audio").bytes).toString("base64") },
      0,
      options,
    );
    const again = await resolveMediaItem({ mediaId: first.medium.mediaId }, 0, options);
    expect(again.medium).toEqual(first.medium);
    expect(again.filename).toBe("audio.mp3");
    expect((await resolveMediaItem({ mediaId: first.medium.mediaId, filename: "tone.mp3" }, 0, options)).filename).toBe(
      "tone.mp3",
    );
    const unknown = await failure({ mediaId: "med_doesNotExist0000000" });
    expect([unknown.code, unknown.message]).toEqual([
      "E_INVALID_INPUT",
      "media.2.mediaId: there is no medium med_doesNotExist0000000 (never stored, or past its retention).",
    ]);
  });
});

describe("signed media links", () => {
  let test: TestState;

  beforeEach(async () => {
    test = await openTestState();
  });

  afterEach(async () => {
    await test.close();
  });

  it("are valid for their lifetime, then not; a tampered signature, time or id is refused", async () => {
    const links = new MediaLinks(await linkKey(test.state.db), "https://chat.example.com");
    const now = Date.UTC(2026, 0, 1);
    const url = new URL(links.link("med_abcdefgh12345678", now) as string);
    expect(url.origin + url.pathname).toBe("https://chat.example.com/v1/media/med_abcdefgh12345678");
    const exp = url.searchParams.get("exp") as string;
    const sig = url.searchParams.get("sig") as string;
    expect(Number(exp) * 1000).toBe(now + LINK_LIFETIME_MS);
    expect(links.verify("med_abcdefgh12345678", exp, sig, now)).toBe(true);
    expect(links.verify("med_abcdefgh12345678", exp, sig, now + LINK_LIFETIME_MS)).toBe(false);
    expect(links.verify("med_abcdefgh12345678", String(Number(exp) + 3600), sig, now)).toBe(false);
    expect(links.verify("med_abcdefgh12345678", exp, `${sig.slice(0, -2)}AA`, now)).toBe(false);
    expect(links.verify("med_otherotherother00", exp, sig, now)).toBe(false);
    expect(links.verify("med_abcdefgh12345678", undefined, sig, now)).toBe(false);
    expect(links.verify("med_abcdefgh12345678", "soon", sig, now)).toBe(false);
  });

  it("share one key kept in the state database: another gateway on it checks alike", async () => {
    const first = new MediaLinks(await linkKey(test.state.db), "https://a.example");
    const other = await test.reopen();
    const second = new MediaLinks(await linkKey(other.db), "https://b.example");
    const url = new URL(first.link("med_abcdefgh12345678") as string);
    expect(
      second.verify("med_abcdefgh12345678", url.searchParams.get("exp") ?? "", url.searchParams.get("sig") ?? ""),
    ).toBe(true);
  });

  it("are none without gateway.publicUrl", async () => {
    const links = new MediaLinks(await linkKey(test.state.db), undefined);
    expect(links.enabled).toBe(false);
    expect(links.link("med_abcdefgh12345678")).toBeUndefined();
  });
});
