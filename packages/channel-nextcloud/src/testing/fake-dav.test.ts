import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as files from "../fixtures/talk-file-hooks.js";
import { SHARE_API_PATH } from "../uploads.js";
import { createFakeTalk, type FakeTalk, phpJsonEncode } from "./index.js";

type OcsAnswer = { ocs: { meta: { message: string }; data: unknown } };

// The fake's WebDAV and share API are the platform the media tests trust: their rules are pinned here.
let fake: FakeTalk;
const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const BOT = auth("chorus-bot", "app-pw");
const dav = (
  method: string,
  path: string,
  init: { body?: string | Uint8Array; headers?: Record<string, string> } = {},
) =>
  fetch(`${fake.url}/remote.php/dav/files/chorus-bot/${path}`, {
    method,
    headers: { authorization: BOT, ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
const share = (body: Record<string, unknown>, authorization = BOT) =>
  fetch(`${fake.url}${SHARE_API_PATH}`, {
    method: "POST",
    headers: {
      authorization,
      "ocs-apirequest": "true",
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify(body),
  });

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  fake.addRoom({ token: "team", name: "Team Room" });
  fake.addAccount({ id: "chorus-bot", appPassword: "app-pw" });
  fake.addParticipant("team", "chorus-bot");
});

afterEach(() => fake.close());

describe("fake WebDAV", () => {
  it("refuses a wrong app password with sabre's 401 and Basic challenge", async () => {
    const answer = await fetch(`${fake.url}/remote.php/dav/files/chorus-bot/Talk`, {
      method: "MKCOL",
      headers: { authorization: auth("chorus-bot", "nope") },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Basic realm="Nextcloud", charset="UTF-8"');
    expect(await answer.text()).toContain("Sabre\\DAV\\Exception\\NotAuthenticated");
  });

  it("PUT: 409 without the folder, 201 in it, 412 for If-None-Match on a taken name; MKCOL twice is 405", async () => {
    expect((await dav("PUT", "Talk/a.txt", { body: "x" })).status).toBe(409);
    expect((await dav("MKCOL", "Talk")).status).toBe(201);
    expect((await dav("MKCOL", "Talk")).status).toBe(405);
    const created = await dav("PUT", "Talk/a.txt", { body: "first", headers: { "if-none-match": "*" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("oc-fileid")).toMatch(/^\d+$/);
    expect((await dav("PUT", "Talk/a.txt", { body: "second", headers: { "if-none-match": "*" } })).status).toBe(412);
    const got = await dav("GET", "Talk/a.txt");
    expect([got.status, got.headers.get("content-type"), await got.text()]).toEqual([200, "text/plain", "first"]);
    expect(fake.bytesServed).toBe(5);
    // Without the condition a PUT replaces the content of the same file.
    const replaced = await dav("PUT", "Talk/a.txt", { body: "third" });
    expect([replaced.status, replaced.headers.get("oc-fileid")]).toEqual([204, created.headers.get("oc-fileid")]);
    expect(await (await dav("GET", "Talk/a.txt")).text()).toBe("third");
  });

  it("SEARCH by oc:fileid finds a room share in a participant's Talk folder; an outsider finds nothing", async () => {
    const hook = fake.userSharesFile({
      token: "team",
      user: { id: "ann", name: "Ann" },
      name: "r.pdf",
      bytes: new Uint8Array([1]),
    });
    const fileId = (JSON.parse(hook.object.content).parameters.file as { id: string }).id;
    const search = (user: string, password: string) =>
      fetch(`${fake.url}/remote.php/dav/`, {
        method: "SEARCH",
        headers: { authorization: auth(user, password), "content-type": "text/xml" },
        body: `<d:searchrequest xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:basicsearch><d:from><d:scope><d:href>/files/${user}</d:href><d:depth>infinity</d:depth></d:scope></d:from><d:where><d:eq><d:prop><oc:fileid/></d:prop><d:literal>${fileId}</d:literal></d:eq></d:where></d:basicsearch></d:searchrequest>`,
      });
    const found = await search("chorus-bot", "app-pw");
    expect(found.status).toBe(207);
    expect(await found.text()).toContain("<d:href>/remote.php/dav/files/chorus-bot/Talk/r.pdf</d:href>");
    fake.addAccount({ id: "eve", appPassword: "eve-pw" });
    expect(await (await search("eve", "eve-pw")).text()).not.toContain("<d:response>");
  });
});

describe("fake share API", () => {
  beforeEach(async () => {
    await dav("MKCOL", "Talk");
    await dav("PUT", "Talk/c.png", { body: new Uint8Array([137, 80, 78, 71]) });
  });

  it("refuses a wrong path, a conversation the sharer is not in, and a repeat, as Nextcloud says it", async () => {
    fake.addRoom({ token: "other" });
    const said = async (answer: Response) => [answer.status, ((await answer.json()) as OcsAnswer).ocs.meta.message];
    expect(await said(await share({ path: "/Talk/x.png", shareType: 10, shareWith: "team" }))).toEqual([
      404,
      "Wrong path, file/folder does not exist",
    ]);
    expect(await said(await share({ path: "/Talk/c.png", shareType: 10, shareWith: "other" }))).toEqual([
      404,
      "Conversation not found",
    ]);
    expect((await share({ path: "/Talk/c.png", shareType: 10, shareWith: "team" })).status).toBe(200);
    expect(await said(await share({ path: "/Talk/c.png", shareType: 10, shareWith: "team" }))).toEqual([
      403,
      "Path is already shared with this room",
    ]);
  });

  it("a share leaves the sharer's chat message: caption as the message, the file rich object, the referenceId", async () => {
    const answer = await share({
      path: "/Talk/c.png",
      shareType: 10,
      shareWith: "team",
      referenceId: "r".repeat(64),
      talkMetaData: JSON.stringify({ caption: "Chart" }),
    });
    expect(((await answer.json()) as OcsAnswer).ocs.data).toMatchObject({
      share_type: 10,
      share_with: "team",
      path: "/Talk/c.png",
    });
    const [message] = fake.messagesIn("team");
    expect(message).toMatchObject({ actorId: "users/chorus-bot", message: "Chart", referenceId: "r".repeat(64) });
    expect(Object.keys(message?.parameters ?? {})).toEqual(["actor", "file"]);
    expect(fake.sharedMessage("r".repeat(64))?.file?.bytes).toEqual(new Uint8Array([137, 80, 78, 71]));
  });
});

describe("what the fake sends for a shared file is what Talk sends", () => {
  it("the file rich object has getFileFromShare's fields, in its order, as strings", async () => {
    const hook = fake.userSharesFile({
      token: "team",
      user: { id: "ada-lovelace", name: "Ada Lovelace" },
      name: "minutes.txt",
      bytes: new Uint8Array(212),
    });
    const ours = JSON.parse(JSON.parse(phpJsonEncode(hook)).object.content).parameters;
    const talks = JSON.parse(JSON.parse(files.fileActivity).object.content).parameters;
    expect(Object.keys(ours)).toEqual(Object.keys(talks));
    expect(Object.keys(ours.file)).toEqual(Object.keys(talks.file));
    expect(ours.actor).toEqual(talks.actor);
    expect(ours.file).toMatchObject({
      type: "file",
      name: "minutes.txt",
      size: "212",
      mimetype: "text/plain",
      permissions: "27",
    });
  });
});
