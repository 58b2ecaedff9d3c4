import { bench, describe } from "vitest";
import { splitText } from "./split.js";

const words = Array.from({ length: 30_000 }, (_, i) => `word${i % 97}`).join(" ");
const emoji = "👍🏽 family 👨‍👩‍👧‍👦 ok ".repeat(5_000);
const bytes = (text: string) => Buffer.byteLength(text);

describe("splitText", () => {
  bench("200 KB of words at 4,000 UTF-16 units (Slack, Telegram)", () => {
    splitText(words, 4_000);
  });
  bench("200 KB of words at 29,000 UTF-8 bytes (Feishu's request limit)", () => {
    splitText(words, 29_000, bytes);
  });
  bench("135 KB of emoji clusters at 4,000 UTF-16 units", () => {
    splitText(emoji, 4_000);
  });
});
