import { describe, expect, it } from "vitest";
import { formatBytes } from "./format.js";

describe("formatBytes", () => {
  it.each([
    [512, "512 bytes"],
    [512 * 1024, "512 KB"],
    [10 * 1024 * 1024, "10 MB"],
    [31.2 * 1024 * 1024, "31.2 MB"],
    [1024 ** 3, "1 GB"],
    [2.5 * 1024 ** 3, "2.5 GB"],
  ])("%d bytes read as %s", (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
