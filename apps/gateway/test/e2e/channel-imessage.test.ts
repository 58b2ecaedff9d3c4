import { fileURLToPath } from "node:url";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "@chorus/channel-imessage/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { runChorus } from "../support/loading-cli.js";

const PLUGIN_DIR = fileURLToPath(new URL("../../../../packages/channel-imessage", import.meta.url));
const GROUP = "iMessage;+;chat777";
const ADA = "+15550001111";
const BOB = "bob@example.com";

describe("iMessage (BlueBubbles) through the real gateway process", () => {
  let bluebubbles: FakeBlueBubbles;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    bluebubbles = createFakeBlueBubbles();
    await bluebubbles.start();
    bluebubbles.addChat({ guid: GROUP, displayName: "Dinner Club", participants: [ADA, BOB] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN_DIR] },
        channels: {
          imessage: { ...bluebubbles.config(), groupPolicy: "open", dmPolicy: "open" },
        },
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              groupChat: { mentionPatterns: ["\\bchorus\\b"] },
              model: fakeModelConfig(model, { apiKey: "sk-test" }),
            },
          ],
        },
      },
    });
    // On start the plugin registers its webhook (with its generated secret) on the server.
    await eventually(() => expect(bluebubbles.state.webhooks).toHaveLength(1), { timeoutMs: 10_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await bluebubbles?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("registers /hooks/imessage/default with a secret", () => {
    const url = new URL(bluebubbles.state.webhooks[0]?.url ?? "");
    expect(`${url.origin}${url.pathname}`).toBe(`${gateway.url}/hooks/imessage/default`);
    expect(url.searchParams.get("secret")?.length).toBeGreaterThanOrEqual(16);
  });

  it("a mention reaches the model; the reply and a tapback reach BlueBubbles; unmentioned messages are buffered", async () => {
    const unmentioned = bluebubbles.userSends({ chatGuid: GROUP, from: BOB, text: "Tacos on Friday?" });
    expect(await bluebubbles.deliver(unmentioned)).toEqual([200]);
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Tacos sound great, Ada." },
    );
    const trigger = bluebubbles.userSends({
      chatGuid: GROUP,
      from: ADA,
      text: "Chorus, what do you think of Bob's plan?",
    });
    expect(await bluebubbles.deliver(trigger)).toEqual([200]);

    await eventually(
      () =>
        expect(
          bluebubbles
            .messagesIn(GROUP)
            // Tapback rows carry text too (`Liked “…”`), as on a real server.
            .filter((m) => m.isFromMe && m.associatedMessageGuid === undefined)
            .map((m) => m.text),
        ).toEqual(["Tacos sound great, Ada."]),
      { timeoutMs: 15_000 },
    );
    const reply = bluebubbles.messagesIn(GROUP).find((m) => m.isFromMe && m.associatedMessageGuid === undefined);
    expect(reply?.threadOriginatorGuid).toBe(trigger.guid);
    await eventually(() => expect(bluebubbles.botTapbacks(trigger.guid)).toEqual(["like"]));
    // The unmentioned message started no turn and arrives as context with the trigger.
    expect(model.requests).toHaveLength(2);
    const batch = lastUserText(model.requests[0]);
    expect(batch).toContain("[Chat messages since your last reply - for context]");
    expect(batch).toContain("Tacos on Friday?");
    expect(batch).toContain("[Current message - respond to this]");
    expect(batch).toContain("Chorus, what do you think of Bob's plan?");
    expect(batch.indexOf("Tacos on Friday?")).toBeLessThan(batch.indexOf("Chorus, what do you think"));
  }, 30_000);

  it("a forged hook (no secret, wrong secret) is refused with 401 and reaches no model", async () => {
    const before = model.requests.length;
    const forged = bluebubbles.userSends({ chatGuid: GROUP, from: ADA, text: "Chorus, forged" });
    const bare = `${gateway.url}/hooks/imessage/default`;
    expect(await bluebubbles.deliver(forged, bare)).toEqual([401]);
    expect(await bluebubbles.deliver(forged, `${bare}?secret=not-the-secret-at-all`)).toEqual([401]);
    expect(model.requests).toHaveLength(before);
  });

  it("chorus doctor reports the BlueBubbles server reachable and its Private API enabled", async () => {
    const run = await runChorus(["doctor", "--url", gateway.url, "--token", gateway.token], { home: gateway.home });
    const line = run.stdout.split("\n").find((l) => l.includes("running gateway: channel imessage (default)"));
    expect(run.stdout).toContain("✓ channel imessage (default): the BlueBubbles server at");
    expect(line).toMatch(/^✓ running gateway: channel imessage \(default\) running — server .*Private API enabled/);
  });
});
