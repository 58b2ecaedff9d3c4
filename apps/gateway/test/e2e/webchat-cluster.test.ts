import { randomBytes } from "node:crypto";
import { waitFor } from "@chorus/testkit";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  type FakeOpenAI,
  fakeModelConfig,
  freshPostgresDatabase,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { connectWebchat, type WebchatClient } from "../support/webchat-client.js";

const TOKEN = "webchat-cluster-token-0123456789";

interface ChannelsAnswer {
  channels: { id: string; holder: string | null; status: { state: string } }[];
}

/** Uploads `bytes` as the page does: announced with `POST /hooks/webchat/upload`, then sent in pieces with `PUT`. */
async function uploadAsThePage(gateway: GatewayProcess, bytes: Uint8Array, filename: string, mime: string) {
  const base = `${gateway.url}/hooks/webchat/upload`;
  const headers = { authorization: `Bearer ${TOKEN}` };
  const begun = await fetch(base, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ filename, mime, size: bytes.byteLength }),
  });
  expect(begun.status).toBe(201);
  const { id, pieceBytes } = (await begun.json()) as { id: string; pieceBytes: number };
  for (let offset = 0; offset < bytes.byteLength; offset += pieceBytes) {
    const piece = bytes.subarray(offset, offset + pieceBytes);
    const sent = await fetch(`${base}?id=${id}&offset=${offset}`, { method: "PUT", headers, body: piece });
    expect(sent.status).toBe(200);
  }
  return id;
}

/**
 * The webchat on a cluster (DESIGN §2.6, §6): two `chorus start` processes on one PostgreSQL; the
 * webchat runs on the gateway holding its lease. A file uploaded through it there is in the media
 * store, so once that gateway died and the other took the webchat over, the other serves it to the
 * page byte for byte and its agent reads it.
 */
describe("the webchat's media on two gateways sharing PostgreSQL", () => {
  let model: FakeOpenAI | undefined;
  let db: pg.Client | undefined;
  const clients: WebchatClient[] = [];
  const gateways: GatewayProcess[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const gateway of gateways) await gateway.stop("SIGKILL");
    await db?.end();
    await model?.close();
    for (const gateway of gateways) await removeHome(gateway.home);
  });

  it("uploaded through the page on gateway A, served by gateway B and read by B's agent after A died", async () => {
    const url = await freshPostgresDatabase("webchat_cluster");
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    const config = {
      gateway: { auth: { token: TOKEN } },
      state: { backend: "postgres", url, leaseMs: 2_000 },
      channels: { webchat: { reactionLevel: "off" } },
      agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
    };
    for (let i = 0; i < 2; i++) gateways.push(await startGatewayProcess({ config }));
    /** Whether `gateway` holds the webchat's lease and runs it. */
    const holds = async (gateway: GatewayProcess) => {
      const { json } = (await gateway.call("GET", "/v1/channels")) as { json: ChannelsAnswer };
      const webchat = json.channels.find((c) => c.id === "webchat");
      return webchat?.holder?.endsWith(`:${gateway.process.pid}`) === true && webchat.status.state === "running";
    };
    const a = await waitFor(
      async () => {
        for (const gateway of gateways) if (await holds(gateway)) return gateway;
        return undefined;
      },
      { timeoutMs: 20_000, message: "a gateway running the webchat" },
    );
    const b = gateways.find((g) => g !== a) as GatewayProcess;
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const sql = db;
    const count = async (query: string) => Number((await sql.query(query)).rows[0]?.n ?? 0);

    // On A: Ada uploads a report (several pieces, over one chunk of the store) and posts it in the lobby
    // without mentioning the bot: kept as context, no turn yet.
    const secret = `figures-${randomBytes(6).toString("hex")}`;
    const report = new TextEncoder().encode(`Quarterly report\n${secret}\n${"x".repeat(1_200_000)}\nend\n`);
    const ada = await connectWebchat(a.url, TOKEN, "Ada");
    clients.push(ada);
    ada.send({ type: "join", room: "lobby" });
    await ada.waitForFrame((f) => f.type === "history" && f.room === "lobby");
    const upload = await uploadAsThePage(a, report, "report.txt", "text/plain");
    ada.send({ type: "message", room: "lobby", text: "the report, for later", attachments: [upload] });
    const posted = await ada.waitForFrame((f) => f.type === "message" && f.message.text === "the report, for later");
    const medium = posted.message.attachments[0] as { id: string; url: string; size: number };
    expect(medium.id).toBe(upload);
    expect(medium.size).toBe(report.byteLength);
    await waitFor(async () => (await count("SELECT count(*) AS n FROM inbox WHERE status = 'buffered'")) === 1, {
      timeoutMs: 15_000,
      message: "the message buffered as the lobby's context",
    });
    await waitFor(async () => (await count("SELECT count(*) AS n FROM kv WHERE key LIKE 'messages/lobby/%'")) === 1, {
      timeoutMs: 15_000,
      message: "the message in the webchat's store",
    });
    expect(model.requests).toHaveLength(0);

    // A dies; B takes the webchat over.
    a.process.kill("SIGKILL");
    await new Promise((resolve) => a.process.once("exit", resolve));
    await waitFor(() => holds(b), { timeoutMs: 30_000, message: "gateway B running the webchat" });

    // B's media route serves the file to the page, byte for byte (and a range of it, as a player seeks).
    const served = await fetch(`${b.url}${medium.url}&token=${TOKEN}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(report);
    const part = await fetch(`${b.url}${medium.url}`, {
      headers: { authorization: `Bearer ${TOKEN}`, range: "bytes=17-40" },
    });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(report.subarray(17, 41));

    // Ada, back on B, asks the bot: B's turn reads the report (downloaded through B's webchat) as context.
    model.script({ text: "The figures are in." });
    const again = await connectWebchat(b.url, TOKEN, "Ada");
    clients.push(again);
    again.send({ type: "join", room: "lobby" });
    const history = await again.waitForFrame((f) => f.type === "history" && f.room === "lobby");
    expect(history.messages.map((m: { attachments?: { id: string }[] }) => m.attachments?.[0]?.id)).toContain(
      medium.id,
    );
    again.send({ type: "message", room: "lobby", text: "@Chorus what does the report say?" });
    await again.waitForFrame((f) => f.type === "message" && f.message.text === "The figures are in.", 20_000);
    const turn = model.requests.at(-1);
    expect(lastUserText(turn)).toContain("@Chorus what does the report say?");
    expect(JSON.stringify(turn)).toContain(secret);
    expect(b.output()).not.toContain(TOKEN);
  }, 120_000);
});
