import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineVocabulary } from "../emoji/vocabulary.js";
import { ChorusError } from "../errors.js";
import type { ReactionCapabilities } from "../reactions/capabilities.js";
import { silentLogger } from "./logger.js";
import type { MessageRef } from "./message-ref.js";
import {
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  channelPluginProblems,
  defineChannel,
} from "./plugin.js";
import type { ChannelStore } from "./store.js";

const configSchema = z.object({
  token: z.string().min(1),
  apiRoot: z.url().default("https://api.example.test"),
});
type Config = z.output<typeof configSchema>;

const reactions = (partial: Partial<ReactionCapabilities> = {}): ReactionCapabilities => ({
  clearAll: true,
  singleSlot: false,
  tapbackOnly: false,
  addOnly: false,
  list: true,
  ...partial,
});

const capabilities = (partial: Partial<ReactionCapabilities> = {}): ChannelCapabilities => ({
  chatTypes: ["direct", "group"],
  reactions: reactions(partial),
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: 2000,
});

const ref: MessageRef = { channel: "example", accountId: "default", conversationId: "c1", messageId: "m1" };

const instance = (): ChannelInstance => ({
  start: async () => {},
  stop: async () => {},
  send: async () => ref,
  react: async (_ref, intent) => ({ ok: true, action: "react", op: intent.op }),
  setTyping: async () => {},
  resolveMessageRef: async () => ref,
  status: () => ({ state: "running" }),
});

/** A store the plugin under test never touches (core has no store implementation: hosts bring one). */
const unusedStore: ChannelStore = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => false,
  list: async () => [],
  update: async () => undefined,
};

/** A valid plugin; tests spread over it to break one thing at a time. */
const valid = {
  id: "example",
  apiVersion: 1,
  label: "Example",
  capabilities: capabilities(),
  configSchema,
  create: () => instance(),
} as const satisfies ChannelPlugin<Config>;

/** The E_INVALID_INPUT that defineChannel throws for `value`. */
function rejection(value: unknown): ChorusError {
  try {
    defineChannel(value as ChannelPlugin);
  } catch (error) {
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("E_INVALID_INPUT");
    return error as ChorusError;
  }
  throw new Error("expected defineChannel to reject");
}

describe("defineChannel", () => {
  it("returns a valid plugin as it is", () => {
    expect(defineChannel(valid)).toBe(valid);
    expect(channelPluginProblems(valid)).toEqual([]);
  });

  it("accepts a tapback channel with its kinds and an add-only channel without clearAll", () => {
    const tapbacks = defineVocabulary(["love", "like"]);
    const imessage = {
      ...valid,
      id: "imessage",
      vocabulary: tapbacks,
      capabilities: capabilities({ tapbackOnly: true, singleSlot: true, vocabulary: tapbacks.names }),
    };
    expect(defineChannel(imessage)).toBe(imessage);
    const nextcloud = { ...valid, id: "nextcloud", capabilities: capabilities({ addOnly: true, clearAll: false }) };
    expect(defineChannel(nextcloud)).toBe(nextcloud);
  });

  it("accepts declared media and names every problem with them", () => {
    const media = {
      send: ["image", "location"],
      receive: ["image", "contact"],
      maxSendBytes: 1024,
      maxReceiveBytes: 2048,
      caption: true,
      perMessage: 10,
    } as const;
    const photos = { ...valid, capabilities: { ...capabilities(), media } };
    expect(defineChannel(photos)).toBe(photos);
    const broken = {
      ...valid,
      capabilities: {
        ...capabilities(),
        media: {
          send: ["image", "hologram"],
          receive: ["image"],
          maxSendBytes: 0,
          maxReceiveBytes: -1,
          caption: true,
          perMessage: 0,
          linkOnly: true,
        },
      },
    };
    const message = rejection(broken).message;
    for (const problem of [
      'capabilities.media.send lists an unknown kind "hologram"',
      "capabilities.media.maxReceiveBytes must be a whole number of bytes ≥ 0",
      "capabilities.media.perMessage must be a whole number ≥ 1",
      "capabilities.media.maxSendBytes must be > 0 where media are sent",
      "capabilities.media.linkOnly cannot send media natively",
    ]) {
      expect(message).toContain(problem);
    }
  });

  it("gives create a config the schema validated", async () => {
    const plugin = defineChannel({
      ...valid,
      create: (ctx) => ({ ...instance(), status: () => ({ state: "running", detail: ctx.config.apiRoot }) }),
    });
    const parsed = await plugin.configSchema["~standard"].validate({ token: "t" });
    if (parsed.issues) throw new Error("config should be valid");
    const ctx: ChannelContext<Config> = {
      config: parsed.value,
      accountId: "default",
      store: unusedStore,
      stateDir: "/tmp/state",
      logger: silentLogger,
      signal: new AbortController().signal,
      emit: async () => {},
      http: { route: () => {}, url: (path) => `http://127.0.0.1/hooks/example/${path}` },
    };
    const created = await plugin.create(ctx);
    expect(created.status()).toEqual({ state: "running", detail: "https://api.example.test" });
  });

  it.each([
    ["an upper-case id", { id: "Example" }, "id must match"],
    ["an id with a dot", { id: "my.channel" }, "id must match"],
    ["an id starting with a digit", { id: "1chat" }, "id must match"],
    ["an empty id", { id: "" }, "id must match"],
    ["a wrong apiVersion", { apiVersion: 2 }, "apiVersion is 2, this core speaks 1"],
    ["an empty label", { label: "" }, "label must be a non-empty string"],
    ["no create", { create: undefined }, "create must be a function"],
    [
      "a configSchema that is not a Standard Schema",
      { configSchema: { parse: () => ({}) } },
      "configSchema must be a Standard Schema",
    ],
    [
      "no reaction capabilities",
      { capabilities: { ...capabilities(), reactions: undefined } },
      "capabilities.reactions is missing",
    ],
    [
      "tapbackOnly without a vocabulary",
      { capabilities: capabilities({ tapbackOnly: true }) },
      "tapbackOnly needs a vocabulary of kinds",
    ],
    [
      "tapbackOnly with an empty vocabulary",
      { capabilities: capabilities({ tapbackOnly: true, vocabulary: [] }) },
      "tapbackOnly needs a vocabulary of kinds",
    ],
    [
      "addOnly with clearAll",
      { capabilities: capabilities({ addOnly: true, clearAll: true }) },
      "cannot be addOnly and clearAll at once",
    ],
    [
      "a login option with an upper-case name",
      { loginOptions: [{ name: "Phone", value: "<n>", description: "x" }] },
      'lower-case words joined by "-"',
    ],
    [
      "a login option named like a CLI option",
      { loginOptions: [{ name: "account", value: "<n>", description: "x" }] },
      'name "account" is reserved',
    ],
    [
      "a login option without a description",
      { loginOptions: [{ name: "phone", value: "<n>" }] },
      "needs a value placeholder and a description",
    ],
    ["loginOptions that are not a list", { loginOptions: { phone: true } }, "loginOptions must be a list"],
    ["a probe that is not a function", { probe: "getMe" }, "probe must be a function"],
    ["secretKeys with an empty key", { secretKeys: ["token", ""] }, "secretKeys must be a list of config keys"],
    [
      'addOnly with clearAll "explicit"',
      { capabilities: capabilities({ addOnly: true, clearAll: "explicit" }) },
      "cannot be addOnly and clearAll at once",
    ],
  ])("rejects %s", (_, change, problem) => {
    const plugin = { ...valid, ...change };
    const error = rejection(plugin);
    expect(error.message).toContain(problem);
    expect(channelPluginProblems(plugin)).toHaveLength(1);
  });

  it("accepts declared login options and secret keys", () => {
    const plugin = {
      ...valid,
      loginOptions: [{ name: "phone", value: "<number>", description: "link with a pairing code" }],
      secretKeys: ["token", "auth.password"],
    };
    expect(channelPluginProblems(plugin)).toEqual([]);
  });

  it("accepts a probe: doctor's cheap, side-effect-free check of one account", async () => {
    const plugin = defineChannel<Config>({
      ...valid,
      probe: async (ctx) => ({
        ok: ctx.config.token !== "",
        detail: `token for ${ctx.accountId}`,
        webhooks: ["events"],
      }),
    });
    const result = await plugin.probe?.({
      config: { token: "t", apiRoot: "https://api.example.test" },
      accountId: "default",
      stateDir: "/tmp/none",
      store: { get: async () => undefined, list: async () => [] },
      logger: silentLogger,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ ok: true, detail: "token for default", webhooks: ["events"] });
  });

  it("names the plugin and every problem at once", () => {
    const error = rejection({
      ...valid,
      id: "Bad Id",
      apiVersion: 0,
      create: "nope",
      capabilities: capabilities({ tapbackOnly: true, addOnly: true, clearAll: true }),
    });
    expect(error.message).toMatch(/^channel plugin "Bad Id" is invalid: /);
    for (const problem of [
      "id must match",
      "apiVersion is 0",
      "create must be a function",
      "tapbackOnly needs",
      "addOnly and clearAll",
    ]) {
      expect(error.message).toContain(problem);
    }
  });

  it.each([null, undefined, "telegram", 1])("rejects %j, which is not an object", (value) => {
    expect(rejection(value).message).toContain("it is not an object");
  });

  it("type-checks create against the parsed config type", () => {
    const plugin = defineChannel({
      ...valid,
      create: (ctx) => {
        expectTypeOf(ctx.config).toEqualTypeOf<{ token: string; apiRoot: string }>();
        return instance();
      },
    });
    expectTypeOf(plugin).toEqualTypeOf<ChannelPlugin<{ token: string; apiRoot: string }>>();
    expectTypeOf(plugin.create).parameter(0).toEqualTypeOf<ChannelContext<Config>>();
    expectTypeOf<Parameters<typeof plugin.create>[0]["config"]["apiRoot"]>().toEqualTypeOf<string>();
    defineChannel({
      ...valid,
      create: (ctx) => {
        // @ts-expect-error: the schema has no `port`.
        ctx.config.port;
        return instance();
      },
    });
    expect(plugin.id).toBe("example");
  });
});
