import { describe, expect, it } from "vitest";
import { decryptEvent, eventSignature, signatureProblem } from "./crypto.js";
import { encryptEvent } from "./testing/index.js";

describe("encrypted deliveries", () => {
  it('decrypt Feishu\'s documented example: key "test key" gives "hello world"', () => {
    expect(decryptEvent("test key", "P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")).toBe("hello world");
  });

  it("refuse another key, a short text and something that is not base64 ciphertext", () => {
    expect(() => decryptEvent("other key", "P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")).toThrow(
      "does not decrypt with the configured encryptKey",
    );
    expect(() => decryptEvent("test key", "AAAA")).toThrow("wrong length");
    expect(() => decryptEvent("test key", "!!! not base64 !!!")).toThrow("wrong length");
  });

  it("round-trip with what the fake Feishu encrypts (a random IV each time)", () => {
    const plain = '{"schema":"2.0","header":{"event_id":"e1"},"event":{"text":"飞书 ✓"}}';
    const once = encryptEvent("k3y", plain);
    expect(encryptEvent("k3y", plain)).not.toBe(once);
    expect(decryptEvent("k3y", once)).toBe(plain);
  });
});

describe("X-Lark-Signature", () => {
  const body = Buffer.from('{"encrypt":"P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk="}');
  const headers = (signature: string) =>
    new Headers({
      "x-lark-request-timestamp": "1700000000",
      "x-lark-request-nonce": "n0nce",
      "x-lark-signature": signature,
    });

  it("is the hex SHA-256 of timestamp + nonce + encrypt key + the raw body", () => {
    // printf '%s' '1700000000n0ncetest key{"encrypt":"P37w…"}' | sha256sum
    expect(eventSignature("1700000000", "n0nce", "test key", body)).toBe(
      "bed8fdd3e4bbc581364c140b572ec676edff3db612d57bbc07a24d062c40ddf3",
    );
  });

  it("is checked over the exact bytes: another key, body or missing header is refused", () => {
    const good = eventSignature("1700000000", "n0nce", "test key", body);
    expect(signatureProblem(headers(good), "test key", body)).toBeUndefined();
    expect(signatureProblem(headers(good), "other key", body)).toBe("signature does not match");
    expect(signatureProblem(headers(good), "test key", Buffer.from(`${body} `))).toBe("signature does not match");
    expect(signatureProblem(new Headers(), "test key", body)).toBe(
      "missing X-Lark-Request-Timestamp, -Nonce or X-Lark-Signature",
    );
  });
});
