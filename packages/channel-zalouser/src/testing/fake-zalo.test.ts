import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decryptAes, encryptAes, loginKey, sessionKey } from "../zalo/crypto.js";
import { createFakeZalo, type FakeZalo } from "./fake-zalo.js";
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
