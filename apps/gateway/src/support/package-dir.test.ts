import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GATEWAY_PACKAGE_DIR } from "./package-dir.js";

describe("GATEWAY_PACKAGE_DIR", () => {
  it("is the @chorus/gateway package directory", async () => {
    const pkg = JSON.parse(await readFile(join(GATEWAY_PACKAGE_DIR, "package.json"), "utf8"));
    expect(pkg.name).toBe("@chorus/gateway");
  });
});
