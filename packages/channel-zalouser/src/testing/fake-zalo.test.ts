import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decryptAes, encryptAes, loginKey, sessionKey } from "../zalo/crypto.js";
import { createFakeZalo, type FakeZalo } from "./fake-zalo.js";
import { md5 } from "./media-store.js";
import { signKey } from "./wire.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
let fake: FakeZalo;
let cookie: string;
let enk: string;

beforeEach(async () => {
  fake = createFakeZalo();
  await fake.start();
  fake.addUser({ id: "3087412365498712001", name: "Ann" });
  fake.addGroup({ id: "5401238765432198765", name: "Team", memberIds: [fake.bot.id, "3087412365498712001"] });
  const session = fake.linkedSession();
  cookie = session.cookies.map((c) => `${c.key}=${c.value}`).join("; ");
  enk = [...fake.state.sessions.values()][0]?.enk as string;
});
afterEach(() => fake.close());

/** A service call as zca-js makes it: params AES-encrypted with the session key. */
async function call(path: string, params: unknown, key = enk) {
  const response = await fetch(`${fake.url}${path}?zpw_ver=685&zpw_type=30`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ params: encryptAes(sessionKey(key), JSON.stringify(params)) }),
  });
  const body = (await response.json()) as { error_code: number; data?: string };
  return body.error_code === 0 ? JSON.parse(decryptAes(sessionKey(enk), body.data as string)) : body;
}

describe("fake Zalo", () => {
  it("answers getLoginInfo encrypted with the key of zcid/zcid_ext, and notes a wrong signkey", async () => {
    const zcid = "A1B2C3D4E5F60718293A4B5C6D7E8F90";
    const zcidExt = "9f8e7d";
    const key = loginKey(zcid, zcidExt);
    const imei = (await fake.state.sessions.values().next().value)?.imei as string;
    const query = {
      zcid,
      zcid_ext: zcidExt,
      enc_ver: "v2",
      params: encryptAes(key, JSON.stringify({ computer_name: "Web", imei, language: "vi", ts: Date.now() })),
      type: "30",
      client_version: "685",
    };
    const url = `${fake.url}/api/login/getLoginInfo?${new URLSearchParams({ ...query, signkey: signKey("getlogininfo", query) })}`;
    const body = (await (await fetch(url, { headers: { cookie } })).json()) as { data: string };
    const inner = JSON.parse(decryptAes(key, body.data));
    expect(inner.data).toMatchObject({
      uid: fake.bot.id,
      zpw_enk: enk,
      zpw_ws: ["wss://ws1-msg.chat.zalo.me/ws", "wss://ws2-msg.chat.zalo.me/ws"],
    });
    expect(Object.keys(inner.data.zpw_service_map_v3)).toEqual(
      expect.arrayContaining(["chat", "group", "reaction", "profile", "file"]),
    );
    expect(fake.problems).toEqual([]);
    await fetch(url.replace(/signkey=\w+/, "signkey=0"), { headers: { cookie } });
    expect(fake.problems).toEqual(["getLoginInfo: wrong signkey"]);
  });

  it("refuses params it cannot decrypt, and a revoked session with error 102", async () => {
    expect(await call("/api/group/getmg-v2", {}, Buffer.alloc(32, 1).toString("base64"))).toMatchObject({
      error_code: 114,
    });
    expect(fake.problems).toEqual(["/api/group/getmg-v2: params do not decrypt with the session key"]);
    fake.endSessions();
    expect(await call("/api/group/getmg-v2", {})).toMatchObject({ error_code: 102 });
  });

  it("reacts only to a message named by both its ids, with an icon and its own rType; NONE clears the caller's", async () => {
    // Stored directly: no listener is connected to deliver it.
    const message = fake.state.addMessage({
      cliMsgId: "1733040000001",
      threadId: "5401238765432198765",
      kind: "group",
      uidFrom: "3087412365498712001",
      text: "x",
      ts: Date.now(),
    });
    const react = (cMsgID: string, rIcon: string, rType: number) =>
      call("/api/group/reaction", {
        react_list: [
          {
            message: JSON.stringify({
              rMsg: [{ gMsgID: Number(message.msgId), cMsgID: Number(cMsgID), msgType: 1 }],
              rIcon,
              rType,
              source: 6,
            }),
            clientId: 1,
          },
        ],
        grid: "5401238765432198765",
        imei: "x",
      });
    expect(await react("1", "/-strong", 3)).toMatchObject({ error_code: 114 });
    expect(await react(message.cliMsgId, "/-strong", 5)).toMatchObject({ error_code: 114 });
    expect(await react(message.cliMsgId, "/-strong", 3)).toMatchObject({
      error_code: 0,
      data: { msgIds: [expect.any(Number)] },
    });
    await react(message.cliMsgId, "/-heart", 5);
    fake.state.addReaction(message.msgId, "3087412365498712001", "/-heart", 5);
    expect(fake.botReactions(message.msgId)).toEqual(["/-strong", "/-heart"]);
    await react(message.cliMsgId, "", -1);
    expect(fake.botReactions(message.msgId)).toEqual([]);
    expect(fake.reactionsBy(message.msgId, "3087412365498712001")).toEqual(["/-heart"]);
  });

  it("answers group info for the groups it has; others are removedsGroup", async () => {
    const answer = await call("/api/group/getmg-v2", {
      gridVerMap: JSON.stringify({ "5401238765432198765": 0, "42": 0 }),
    });
    expect(answer.data.removedsGroup).toEqual(["42"]);
    expect(answer.data.gridInfoMap["5401238765432198765"]).toMatchObject({
      name: "Team",
      memberIds: [fake.bot.id, "3087412365498712001"],
    });
  });

  it("holds the QR long poll and answers error_code 8 while nobody scanned", async () => {
    await fetch(`${fake.url}/account/authen/qr/generate`, {
      method: "POST",
      body: new URLSearchParams({ v: "2.44.10" }),
    });
    const poll = await fetch(`${fake.url}/account/authen/qr/waiting-scan`, {
      method: "POST",
      body: new URLSearchParams({ code: fake.qr.find().code, v: "2.44.10" }),
    });
    expect(await poll.json()).toEqual({ error_code: 8, error_message: "Waiting" });
  });
});

describe("fake Zalo: uploads and media, as zca-js speaks them", () => {
  /** One chunk as zca-js uploads it: params encrypted in the query, the bytes as multipart `chunkContent`. */
  async function upload(path: string, type: "2" | "11", params: Record<string, unknown>, chunk: Uint8Array) {
    const form = new FormData();
    form.append("chunkContent", new Blob([chunk]), String(params.fileName));
    const query = new URLSearchParams({ type, params: encryptAes(sessionKey(enk), JSON.stringify(params)) });
    const response = await fetch(`${fake.url}${path}?${query}`, { method: "POST", headers: { cookie }, body: form });
    const body = (await response.json()) as { error_code: number; error_message?: string; data?: string };
    return body.error_code === 0 ? JSON.parse(decryptAes(sessionKey(enk), body.data as string)).data : body;
  }
  const ann = "3087412365498712001";
  const params = (extra: Record<string, unknown>) => ({
    toid: ann,
    fileName: "a.bin",
    clientId: 1,
    imei: "x",
    isE2EE: 0,
    jxl: 0,
    ...extra,
  });

  it("assembles chunks in any order, answering the id -1 until the last (zca-js's 'not yet'), then the fileId", async () => {
    fake.sharefile.chunk_size_file = 4;
    const head = { totalChunk: 2, totalSize: 6 };
    const second = await upload(
      "/api/message/asyncfile/upload",
      "2",
      params({ ...head, chunkId: 2 }),
      new Uint8Array([5, 6]),
    );
    expect(second).toMatchObject({ fileId: -1, finished: 0 });
    const first = await upload(
      "/api/message/asyncfile/upload",
      "2",
      params({ ...head, chunkId: 1 }),
      new Uint8Array([1, 2, 3, 4]),
    );
    expect(first).toMatchObject({ fileId: expect.any(Number), finished: 1, clientFileId: 1, chunkId: 1 });
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const sent = await call("/api/message/asyncfile/msg", {
      fileId: first.fileId,
      fileName: "a.bin",
      totalSize: 6,
      checksum: md5(bytes),
      clientId: 1,
      toid: ann,
    });
    expect(fake.state.messages.get(String(sent.data.msgId))?.medium?.bytes).toEqual(bytes);
    expect(await (await fetch(`${fake.url}/f/none/a.bin`, { method: "HEAD" })).status).toBe(404);
  });

  it("refuses a chunk of another size than chunk_size_file, a photo over max_size_original_photo, a refused extension", async () => {
    fake.sharefile.max_size_original_photo = 1;
    fake.sharefile.restricted_ext_file = ["exe"];
    const big = await upload(
      "/api/message/photo_original/upload",
      "2",
      params({ fileName: "a.png", totalChunk: 1, chunkId: 1, totalSize: 1024 * 1024 + 1 }),
      new Uint8Array(10),
    );
    expect(big).toMatchObject({ error_code: 114, error_message: "File a.png size exceed maximum size of 1MB" });
    const exe = await upload(
      "/api/message/asyncfile/upload",
      "2",
      params({ fileName: "a.exe", totalChunk: 1, chunkId: 1, totalSize: 3 }),
      new Uint8Array(3),
    );
    expect(exe).toMatchObject({ error_code: 114, error_message: 'File extension "exe" is not allowed' });
    const short = await upload(
      "/api/message/asyncfile/upload",
      "2",
      params({ clientId: 2, totalChunk: 1, chunkId: 1, totalSize: 5 }),
      new Uint8Array(3),
    );
    expect(short).toMatchObject({ error_code: 114 });
    expect(fake.problems).toEqual([expect.stringContaining("a.bin arrived as 3 bytes")]);
    const wrongThread = await upload(
      "/api/message/asyncfile/upload",
      "11",
      params({ totalChunk: 1, chunkId: 1, totalSize: 3 }),
      new Uint8Array(3),
    );
    expect(wrongThread).toMatchObject({ error_code: 114 });
  });

  it("sends a file only with the MD5 of its bytes; serves the CDN with HEAD and GET, without cookies", async () => {
    const done = await upload(
      "/api/message/asyncfile/upload",
      "2",
      params({ clientId: 3, totalChunk: 1, chunkId: 1, totalSize: 3 }),
      new Uint8Array([7, 8, 9]),
    );
    const file = { fileId: done.fileId, fileName: "a.bin", totalSize: 3, clientId: 3, toid: ann };
    expect(await call("/api/message/asyncfile/msg", { ...file, checksum: "0".repeat(32) })).toMatchObject({
      error_code: 114,
    });
    expect(fake.problems).toEqual(["asyncfile/msg: checksum or totalSize of a.bin does not match its bytes"]);
    const bytes = new Uint8Array([7, 8, 9]);
    const sent = await call("/api/message/asyncfile/msg", { ...file, checksum: md5(bytes), fileUrl: undefined });
    const message = fake.state.messages.get(String(sent.data.msgId));
    expect(message?.medium).toMatchObject({ kind: "file", filename: "a.bin" });
    const url = new URL(message?.medium?.url as string);
    const head = await fetch(`${fake.url}${url.pathname}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length")]).toEqual([200, "3"]);
    const got = await fetch(`${fake.url}${url.pathname}`);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    expect(fake.media.bytesServed).toBe(3);
  });
});
