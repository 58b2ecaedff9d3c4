import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.js";
import { parseConfig } from "./load.js";

describe("media in the config (DESIGN §2.6)", () => {
  it("has defaults: 25 MiB per medium, kept 7 days, links for a day, public URLs only", () => {
    expect(parseConfig({}, { env: {} }).media).toEqual({
      maxBytes: 25 * 1024 * 1024,
      retention: 7 * 86_400_000,
      linkLifetime: 86_400_000,
      allowPrivateUrls: false,
      allowHosts: [],
      maxExtractChars: 20_000,
    });
  });

  it("takes the retention in the config's duration format, a directory and allowed host:port pairs", () => {
    const media = parseConfig(
      {
        media: {
          retention: "36h",
          linkLifetime: "15m",
          dir: "/srv/outbox",
          allowHosts: ["media.internal:9000", "[::1]:8080"],
        },
      },
      { env: {} },
    ).media;
    expect(media).toMatchObject({
      retention: 36 * 3_600_000,
      linkLifetime: 15 * 60_000,
      dir: "/srv/outbox",
      allowHosts: ["media.internal:9000", "[::1]:8080"],
    });
  });

  it("names the key and what was expected", () => {
    const error = (() => {
      try {
        parseConfig(
          { media: { allowHosts: ["media.internal"], retention: "a week", linkLifetime: "0s", mediaDir: "x" } },
          { env: {} },
        );
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('media.allowHosts[0]: expected "host:port" (got "media.internal")');
    expect(message).toContain('media.retention: expected a number or a duration like "30s", "5m", "1h", got "a week"');
    expect(message).toContain("media.linkLifetime: expected at least 1s");
    expect(message).toContain('media.mediaDir: unknown key "mediaDir" (did you mean "dir"?)');
  });
});
