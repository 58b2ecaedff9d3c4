import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeSignal } from "./index.js";

// The fake is the platform every test trusts, so its own rules and shapes are pinned here.
let fake: FakeSignal;
beforeEach(async () => {
  fake = new FakeSignal({ keepAliveMs: 0 });
  await fake.start();
});
afterEach(async () => {
  await fake.close();
});

const rpc = async (method: string, params: Record<string, unknown> = {}, contentType = "application/json") => {
  const response = await fetch(`${fake.url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { account: fake.account, ...params } }),
  });
  const body = response.status === 200 ? ((await response.json()) as { result?: unknown; error?: unknown }) : undefined;
  return { status: response.status, body };
};

/** The types of a JSON value, with the keys of its objects (and of an array's first item): "the same shape". */
const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 1).map(shape)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
      : value === null
        ? "null"
        : typeof value;
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8")) as unknown;

/** Reads the event stream until `count` `receive` events arrived; returns their data. */
async function receive(count: number): Promise<unknown[]> {
  const response = await fetch(`${fake.url}/api/v1/events?account=${encodeURIComponent(fake.account)}`);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while ((text.match(/^data:/gm) ?? []).length < count) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  expect(text).toMatch(/^event:receive\ndata:\{/);
  return [...text.matchAll(/^data:(.*)$/gm)].map((m) => JSON.parse(m[1] as string));
}

describe("fake signal-cli daemon", () => {
  it("answers /api/v1/check, refuses a body that is not JSON (415), and errors in HTTP 200", async () => {
    expect((await fetch(`${fake.url}/api/v1/check`)).status).toBe(200);
    expect((await rpc("version", {}, "text/plain")).status).toBe(415);
    expect(await rpc("version")).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", result: { version: "0.14.6" }, id: 7 },
    });
    expect((await rpc("frobnicate")).body).toEqual({
      jsonrpc: "2.0",
      error: { code: -32601, message: "Method not implemented", data: null },
      id: 7,
    });
  });

  it("sends with per-recipient results, and fails like signal-cli when no recipient got it", async () => {
    const ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
    const sent = await rpc("send", { recipient: [ann.number], message: "hi" });
    expect(sent.body?.result).toEqual({
      timestamp: expect.any(Number),
      results: [{ recipientAddress: { uuid: ann.uuid, number: ann.number, username: null }, type: "SUCCESS" }],
    });
    fake.failNext("send", { type: "RATE_LIMIT_FAILURE", retryAfterSeconds: 4 });
    expect((await rpc("send", { recipient: [ann.uuid], message: "again" })).body?.error).toEqual({
      code: -5,
      message: "Failed to send message due to rate limiting",
      data: {
        response: {
          timestamp: expect.any(Number),
          results: [expect.objectContaining({ type: "RATE_LIMIT_FAILURE", retryAfterSeconds: 4 })],
        },
      },
    });
    expect((await rpc("send", { recipient: ["+15559999999"], message: "?" })).body?.error).toMatchObject({
      code: -1,
      message: "Failed to send message",
      data: { response: { results: [{ type: "UNREGISTERED_FAILURE" }] } },
    });
    expect(fake.sentTo(ann.uuid).map((m) => m.text)).toEqual(["hi"]);
  });

  it("keeps one reaction per person per message, and takes it back only when named", async () => {
    const ann = fake.state.addPerson({ number: "+15550002222" });
    const { timestamp } = fake.people.sends({ from: ann, text: "hi" });
    const react = (emoji: string, remove = false) =>
      rpc("sendReaction", {
        recipient: [ann.uuid],
        emoji,
        targetAuthor: ann.number,
        targetTimestamp: timestamp,
        remove,
      });
    await react("👍");
    await react("❤️");
    expect(fake.botReactions(ann.uuid, timestamp)).toEqual(["❤️"]);
    await react("👍", true);
    expect(fake.botReactions(ann.uuid, timestamp)).toEqual(["❤️"]);
    await react("❤️", true);
    expect(fake.botReactions(ann.uuid, timestamp)).toEqual([]);
    expect((await react("thumbsup")).body?.error).toMatchObject({ code: -1 });
  });

  it("streams receive events shaped like signal-cli's, and keeps them while nobody listens", async () => {
    const ann = fake.state.addPerson({
      uuid: "3f0c2a1e-8d4b-4c6e-9a57-2b1d0e9f4c31",
      number: "+15550002222",
      name: "Ann",
    });
    const bob = fake.state.addPerson({ name: "Bob" });
    const group = fake.state.addGroup({ name: "Café crew", members: [ann, bob] });
    const first = fake.people.sends({
      from: ann,
      group,
      text: "\uFFFC can you ask \uFFFC?",
      mentions: [fake.bot, bob],
    });
    fake.people.reacts({ from: bob, group, target: { author: fake.bot, timestamp: first.timestamp }, emoji: "🎉" });
    fake.people.ownerSends({ group, text: "/activation always" });
    const [message, reaction, owner] = await receive(3);
    expect(shape(message)).toEqual(shape(fixture("receive-group-mention")));
    expect(shape(reaction)).toEqual(shape(fixture("receive-reaction")));
    expect(shape(owner)).toEqual(shape(fixture("receive-sync-group")));
  });

  it("redelivers the last event byte for byte, and sends an unparseable one on request", async () => {
    const ann = fake.state.addPerson({ number: "+15550002222" });
    fake.people.sends({ from: ann, text: "ping" });
    fake.people.redeliverLast();
    fake.people.deliverUnparseable();
    const [first, again, broken] = await receive(3);
    expect(again).toEqual(first);
    expect(broken).toMatchObject({ envelope: { timestamp: "soon" } });
  });

  it("links in multi-account mode only, and refuses unknown accounts there", async () => {
    expect((await rpc("startLink")).body?.error).toMatchObject({ code: -32601 });
    const multi = new FakeSignal({ mode: "multi" });
    await multi.start();
    try {
      const call = async (method: string, params: Record<string, unknown> = {}) =>
        (await (
          await fetch(`${multi.url}/api/v1/rpc`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
          })
        ).json()) as { result?: { deviceLinkUri?: string; number?: string }; error?: unknown };
      expect((await call("listGroups", { account: multi.account })).error).toEqual({
        code: -32602,
        message: "Specified account does not exist",
        data: null,
      });
      expect((await fetch(`${multi.url}/api/v1/events?account=%2B15550001000`)).status).toBe(400);
      const uri = (await call("startLink")).result?.deviceLinkUri as string;
      expect(uri).toMatch(/^sgnl:\/\/linkdevice\?uuid=[^&]+&pub_key=/);
      const finished = call("finishLink", { deviceLinkUri: uri, deviceName: "Chorus" });
      await expect.poll(() => multi.linking.waiting()).toEqual([uri]);
      multi.linking.scan(uri, multi.account);
      expect((await finished).result).toEqual({ number: multi.account });
      expect(multi.linking.linkedNames).toEqual(["Chorus"]);
      expect((await call("listGroups", { account: multi.account })).result).toEqual([]);
    } finally {
      await multi.close();
    }
  });
});
