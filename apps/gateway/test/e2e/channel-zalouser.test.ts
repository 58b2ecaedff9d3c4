import { fileURLToPath } from "node:url";
import { createFakeZalo, type FakeZalo } from "@chorus/channel-zalouser/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type LoginProcess, startChannelLogin } from "../support/channel-login.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { queueCounts } from "../support/state-db.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-zalouser", import.meta.url));
const ANN = { id: "3087412365498712001", name: "Ann Nguyen" };
const BOB = { id: "3087412365498712002", name: "Bob Tran" };
const TEAM = "5401238765432198765";
const PATIENCE = { timeoutMs: 20_000 };

interface ChannelRow {
  id: string;
  account: string;
  status?: { state?: string; detail?: string };
}

describe("Zalo Personal through the real gateway: linked by `chorus channels login zalouser` while it runs, then a group", () => {
  let zalo: FakeZalo;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;
  const logins: LoginProcess[] = [];

  const status = async () =>
    ((await gateway.call("GET", "/v1/channels")).json.channels as ChannelRow[]).find((row) => row.id === "zalouser")
      ?.status;

  beforeAll(async () => {
    zalo = createFakeZalo({ bot: { id: "2153466178471249562", name: "Chorus" } });
    await zalo.start();
    zalo.addUser(ANN);
    zalo.addUser(BOB);
    zalo.addGroup({ id: TEAM, name: "Team Chorus", memberIds: [zalo.bot.id, ANN.id, BOB.id] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { zalouser: { apiBase: zalo.url, groupPolicy: "open", dmPolicy: "open", reconnectMaxMs: 2_000 } },
        agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
      },
    });
  }, 30_000);

  afterAll(async () => {
    for (const login of logins) login.kill();
    await gateway?.stop();
    await model?.close();
    await zalo?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("starts unlinked, saying how to link", async () => {
    await eventually(async () => {
      const now = await status();
      expect(now?.state).toBe("degraded");
      expect(now?.detail).toContain("chorus channels login zalouser");
    }, PATIENCE);
    expect(zalo.logins).toBe(0);
  });

  it("the login shows the QR code, saves it as a PNG, and after the scan and the confirmation stores the session", async () => {
    const login = startChannelLogin("zalouser", gateway.home);
    logins.push(login);
    const [, qr] = await login.waitForOutput(/^QR code: (\S+)$/m);
    // The text read out of the PNG Zalo sent is what the fake encoded in it.
    expect(qr).toBe(zalo.qr.find().text);
    const [, png] = await login.waitForOutput(/^The QR code is also saved as (\S+login-qr\.png)$/m);
    expect(png).toContain(gateway.home);

    zalo.scanQr(qr);
    await login.waitForOutput(/^Scanned by Chorus: confirm the login on your phone\.$/m);
    zalo.confirmQr(qr);
    await login.waitForOutput(/^Linked Zalo Personal as Chorus \(2153466178471249562\)\.$/m);
    expect(await login.exit(15_000)).toBe(0);
    // No cookie or imei on the terminal.
    for (const session of zalo.state.sessions.values()) {
      expect(login.output()).not.toContain(session.sek);
      expect(login.output()).not.toContain(session.imei ?? "no imei");
    }
  }, 60_000);

  it("the running gateway connects the account by itself once the login finished", async () => {
    await eventually(async () => {
      const now = await status();
      expect(now?.state).toBe("running");
      expect(now?.detail).toBe("connected as Chorus (2153466178471249562)");
    }, PATIENCE);
    expect(zalo.logins).toBeGreaterThanOrEqual(2);
    expect(zalo.problems).toEqual([]);
  });

  it("a mention reaches the model; the reply and a reaction reach Zalo; an unmentioned message is buffered", async () => {
    await zalo.personSends({ from: BOB.id, group: TEAM, text: "Pizza tonight?" });
    // zca-js decrypts every frame Zalo pushes on the thread pool, so two frames pushed at once may reach
    // the listener in either order (as when two people write at the same time): Bob's comes first here.
    await eventually(() => expect(queueCounts(gateway.home).inbox.buffered).toBe(1), PATIENCE);
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Pizza sounds good, Ann." },
    );
    const trigger = await zalo.personSends({
      from: ANN.id,
      group: TEAM,
      text: "@Chorus what do you think about @Bob Tran's idea?",
      mentions: [zalo.bot.id, BOB.id],
    });

    await eventually(
      () => expect(zalo.botMessages(TEAM).map((m) => m.text)).toEqual(["Pizza sounds good, Ann."]),
      PATIENCE,
    );
    // A reply quotes the trigger.
    expect(zalo.botMessages(TEAM)[0]?.quoteOf).toBe(trigger.msgId);
    await eventually(() => expect(zalo.botReactions(trigger.msgId)).toEqual(["/-strong"]), PATIENCE);
    // The unmentioned message started no turn and arrives as context with the trigger.
    expect(model.requests).toHaveLength(2);
    const batch = lastUserText(model.requests[0]);
    expect(batch).toContain("[Chat messages since your last reply - for context]");
    expect(batch).toContain("Bob Tran: Pizza tonight?");
    expect(batch).toContain("[Current message - respond to this]");
    expect(batch).toContain("Ann Nguyen: @Chorus what do you think about @Bob Tran's idea?");
    expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf("what do you think"));
    expect(zalo.problems).toEqual([]);
  }, 30_000);

  it("when Zalo ends the session, the channel stops with the hint to log in again", async () => {
    zalo.endSessions();
    await eventually(async () => {
      const now = await status();
      expect(now?.state).toBe("stopped");
      expect(now?.detail).toContain("chorus channels login zalouser");
    }, PATIENCE);
  });
});
