import { Redactor } from "@chorus/channel-kit";
import { LogRecorder } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import type { API } from "zca-js";
import { createFrameOrder } from "./frame-order.js";

/**
 * What the frame order does when zca-js is not shaped like 2.2.0 (another version): the installed
 * zca-js is, so these hand it listeners of other shapes. The ordering itself is tested through the
 * real zca-js and the fake Zalo in receive.test.ts.
 */
const asListener = (shape: object) => shape as API["listener"];

describe("frame order, on a zca-js shaped otherwise than 2.2.0", () => {
  it("a listener without a socket: one warning however often it connects, nothing thrown", () => {
    const logs = new LogRecorder();
    const inOrder = createFrameOrder({ logger: logs.logger, redactor: new Redactor() });
    for (const listener of [{}, { ws: null }, { ws: "socket" }])
      expect(() => inOrder(asListener(listener))).not.toThrow();
    expect(logs.records.map((r) => [r.level, r.message])).toEqual([
      [
        "warn",
        "zalouser: zca-js' listener has no `ws` socket (the plugin reads it as in zca-js 2.2.0); listener events may reach the gateway out of order",
      ],
    ]);
  });

  it("a socket without a frame handler: it is left alone, with one warning", () => {
    const logs = new LogRecorder();
    const inOrder = createFrameOrder({ logger: logs.logger, redactor: new Redactor() });
    const socket = { onmessage: null };
    inOrder(asListener({ ws: socket }));
    inOrder(asListener({ ws: socket }));
    expect(socket.onmessage).toBeNull();
    expect(logs.at("warn").map((r) => r.message)).toEqual([
      "zalouser: zca-js' listener socket has no `onmessage` handler (the plugin reads it as in zca-js 2.2.0); listener events may reach the gateway out of order",
    ]);
  });
});
