import type { FakeResponse, FakeServer, RequestContext } from "@chorus/testkit";
import { API_PREFIX } from "../client.js";
import { installMediaRoutes } from "./fake-media-routes.js";
import { type FakeBlueBubblesState, type FakeMessage, type FakeWebhook, ME, POSSIBLE_REACTIONS } from "./fake-state.js";
import { answer, refuse, serializeMessage, tapbackText } from "./fake-wire.js";

type Ctx = RequestContext<undefined>;

/** What the REST routes need from the fake around them. */
export interface FakeRoutesOptions {
  server: FakeServer;
  state: FakeBlueBubblesState;
  password: string;
  /** The server's own `new-message` for a row its account sent (posted to the webhooks). */
  echo(message: FakeMessage): void;
  /** formidable's `maxFileSize` for uploads. */
  maxFileBytes: number;
}

/**
 * The BlueBubbles REST routes the plugin uses, as the server answers them: `AuthMiddleware`
 * (`?guid=` / `?password=` / `?token=`), `PrivateApiMiddleware` (HTTP 500 `iMessage Error`),
 * and the validators' refusals.
 */
export function installRoutes({ server, state, password, echo, maxFileBytes }: FakeRoutesOptions): void {
  const rest = (message: FakeMessage, withChats = true) =>
    serializeMessage(state, message, { forWebhook: false, includeChats: withChats, participants: false });
  const authorized =
    <R extends FakeResponse | Promise<FakeResponse>>(handler: (ctx: Ctx) => R) =>
    (ctx: Ctx): R | FakeResponse => {
      const given = ctx.query.get("guid") ?? ctx.query.get("password") ?? ctx.query.get("token");
      if (!given) return refuse(401, "Missing server password!");
      return given.trim() === password.trim() ? handler(ctx) : refuse(401, "Unauthorized");
    };
  // `checkPrivateApiStatus`: what is wrong with the helper, in the server's words.
  const privateApiProblem = () =>
    !state.privateApi
      ? "iMessage Private API is not enabled!"
      : !state.helperConnected
        ? "iMessage Private API Helper is not connected!"
        : undefined;
  const privateApi = (handler: (ctx: Ctx) => FakeResponse) =>
    authorized((ctx) => {
      const problem = privateApiProblem();
      if (!problem) return handler(ctx);
      const said = "Please make sure you have completed the setup for the Private API, and your helper is connected!";
      return refuse(500, problem, said);
    });
  const bodyOf = (ctx: Ctx): Record<string, unknown> => {
    const body = ctx.json<unknown>();
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  };
  const route = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse) =>
    server.route(method, `${API_PREFIX}${path}`, handler);

  route(
    "GET",
    "/ping",
    authorized(() => answer("Ping received!", "pong")),
  );
  route(
    "GET",
    "/server/info",
    authorized(() =>
      answer("Successfully fetched metadata", {
        os_version: "14.5",
        server_version: "1.9.9",
        private_api: state.privateApi,
        helper_connected: state.privateApi && state.helperConnected,
        detected_icloud: state.account,
        detected_imessage: state.account,
      }),
    ),
  );
  route(
    "GET",
    "/webhook",
    authorized(() => answer("Successfully fetched webhooks!", state.webhooks)),
  );
  route(
    "POST",
    "/webhook",
    authorized((ctx) => {
      const body = bodyOf(ctx);
      const events = Array.isArray(body.events) ? body.events.filter((e): e is string => typeof e === "string") : [];
      if (typeof body.url !== "string" || !/^https?:\/\//u.test(body.url))
        return refuse(400, "A valid URL is required");
      if (events.length === 0) return refuse(400, "At least one event is required");
      const existing = state.webhooks.find((w) => w.url === body.url);
      const webhook: FakeWebhook = existing ?? { id: state.webhooks.length + 1, url: body.url, events };
      if (!existing) state.webhooks.push(webhook);
      return answer("Successfully created webhook!", webhook);
    }),
  );
  route(
    "DELETE",
    "/webhook/:id",
    authorized((ctx) => {
      const index = state.webhooks.findIndex((w) => w.id === Number(ctx.params.id));
      if (index < 0) return refuse(404, "Webhook does not exist!");
      state.webhooks.splice(index, 1);
      return answer("Successfully deleted webhook!");
    }),
  );
  route(
    "POST",
    "/message/text",
    authorized((ctx) => {
      const body = bodyOf(ctx);
      const [chatGuid, selected, tempGuid] = strings(body, "chatGuid", "selectedMessageGuid", "tempGuid");
      // The validator implies the Private API for replies.
      const method = selected ? "private-api" : (body.method ?? "apple-script");
      if (!chatGuid) return refuse(400, "The chatGuid field is required.");
      if (typeof body.message !== "string") return refuse(400, "The message field must be a string.");
      if (method !== "apple-script" && method !== "private-api") return refuse(400, "The selected method is invalid.");
      if (method === "apple-script" && tempGuid === undefined) {
        return refuse(400, "A 'tempGuid' is required when sending via AppleScript");
      }
      if (method === "private-api" && (!state.privateApi || !state.helperConnected)) {
        return refuse(500, "iMessage Private API is not enabled!", "Message Send Error");
      }
      if (!state.chats.has(chatGuid)) return refuse(500, "Chat does not exist!", "Message Send Error");
      if (selected && state.messages.get(selected)?.chatGuid !== chatGuid)
        return refuse(400, "Selected message does not exist!");
      const message = state.addMessage({
        chatGuid,
        text: body.message,
        isFromMe: true,
        method,
        ...(tempGuid !== undefined ? { tempGuid } : {}),
        ...(selected ? { threadOriginatorGuid: selected } : {}),
      });
      echo(message);
      return answer("Message sent!", rest(message));
    }),
  );
  route(
    "POST",
    "/message/react",
    privateApi((ctx) => {
      const body = bodyOf(ctx);
      const [chatGuid, selected = "", reaction = ""] = strings(body, "chatGuid", "selectedMessageGuid", "reaction");
      const possible = [...POSSIBLE_REACTIONS, ...POSSIBLE_REACTIONS.map((k) => `-${k}`)];
      if (!chatGuid) return refuse(400, "The chatGuid field is required.");
      if (!possible.includes(reaction)) return refuse(400, "The selected reaction is invalid.");
      if (body.partIndex !== undefined && typeof body.partIndex !== "number")
        return refuse(400, "The partIndex must be a number.");
      const target = state.messages.get(selected);
      if (!target) return refuse(400, "Selected message does not exist!");
      if (target.chatGuid !== chatGuid) return refuse(500, "Chat does not exist!", "Reaction Send Error");
      state.applyTapback(selected, ME, reaction);
      const row = state.addMessage({
        chatGuid,
        text: tapbackText(reaction, target.text),
        isFromMe: true,
        associatedMessageGuid: `p:${typeof body.partIndex === "number" ? body.partIndex : 0}/${selected}`,
        associatedMessageType: reaction,
      });
      echo(row);
      return answer("Reaction sent!", rest(row));
    }),
  );
  const typing = (on: boolean) =>
    privateApi((ctx) => {
      const guid = ctx.params.guid ?? "";
      if (!state.chats.has(guid)) return refuse(404, "Chat does not exist!");
      if (on) state.typing.add(guid);
      else state.typing.delete(guid);
      return answer(on ? "Started typing!" : "Stopped typing!");
    });
  installMediaRoutes({ server, state, authorized, privateApiProblem, maxFileBytes, echo });
  route("POST", "/chat/:guid/typing", typing(true));
  route("DELETE", "/chat/:guid/typing", typing(false));
  route(
    "GET",
    "/message/:guid",
    authorized((ctx) => {
      const message = state.messages.get(ctx.params.guid ?? "");
      if (!message) return refuse(404, "Message does not exist!");
      const withChats = (ctx.query.get("with") ?? "").split(",").some((w) => w.trim() === "chats");
      // Without `with=chats` the server does not load them: `chats` is empty.
      return answer(
        "Successfully fetched message!",
        withChats ? rest(message) : { ...rest(message, false), chats: [] },
      );
    }),
  );
}

/** The string values of `keys` in a request body (undefined where a value is not a string). */
function strings(body: Record<string, unknown>, ...keys: string[]): (string | undefined)[] {
  return keys.map((key) => (typeof body[key] === "string" ? (body[key] as string) : undefined));
}
