import type { FakeResponse, FakeServer } from "@chorus/testkit";
import { Reactions } from "zca-js";
import type { FakeMessage, FakeSession, FakeZaloState } from "./state.js";
import { answer, type Params, refuse, type ZaloHandler, zaloRoute } from "./zalo-route.js";

/** The longest message text the fake takes (the plugin's split size, kept apart on purpose). */
export const FAKE_MAX_TEXT = 2000;

/** What the API routes tell the rest of the fake. */
export interface ApiRoutesOptions {
  state: FakeZaloState;
  problem(text: string): void;
  /** Zalo echoes the account's own messages and reactions to its listeners. */
  echoMessage(message: FakeMessage): void;
  echoReaction(message: FakeMessage, icon: string, rType: number): void;
}

/** The icons Zalo accepts, each with its `rType` (from zca-js' own table of them). */
export const ICON_TYPES: ReadonlyMap<string, number> = new Map<string, number>([
  [Reactions.HAHA, 0],
  [Reactions.LIKE, 3],
  [Reactions.HEART, 5],
  [Reactions.WOW, 32],
  [Reactions.CRY, 2],
  [Reactions.ANGRY, 20],
  [Reactions.KISS, 8],
  [Reactions.TEARS_OF_JOY, 7],
  [Reactions.SHIT, 66],
  [Reactions.ROSE, 120],
  [Reactions.BROKEN_HEART, 65],
  [Reactions.DISLIKE, 4],
  [Reactions.LOVE, 29],
  [Reactions.CONFUSED, 51],
  [Reactions.WINK, 45],
  [Reactions.FADE, 121],
  [Reactions.SUN, 67],
  [Reactions.BIRTHDAY, 126],
  [Reactions.BOMB, 127],
  [Reactions.OK, 68],
  [Reactions.PEACE, 69],
  [Reactions.THANKS, 70],
  [Reactions.PUNCH, 71],
  [Reactions.SHARE, 72],
  [Reactions.PRAY, 73],
  [Reactions.NO, 131],
  [Reactions.BAD, 132],
  [Reactions.LOVE_YOU, 133],
  [Reactions.SAD, 1],
  [Reactions.VERY_SAD, 16],
  [Reactions.COOL, 21],
  [Reactions.NERD, 22],
  [Reactions.BIG_SMILE, 23],
  [Reactions.SUNGLASSES, 26],
  [Reactions.NEUTRAL, 30],
  [Reactions.SAD_FACE, 35],
  [Reactions.BYE, 36],
  [Reactions.SLEEPY, 38],
  [Reactions.WIPE, 39],
  [Reactions.DIG, 42],
  [Reactions.ANGUISH, 44],
  [Reactions.HANDCLAP, 46],
  [Reactions.ANGRY_FACE, 47],
  [Reactions.F_CHAIR, 48],
  [Reactions.L_CHAIR, 49],
  [Reactions.R_CHAIR, 50],
  [Reactions.SILENT, 52],
  [Reactions.SURPRISE, 53],
  [Reactions.EMBARRASSED, 54],
  [Reactions.AFRAID, 60],
  [Reactions.SAD2, 61],
  [Reactions.BIG_LAUGH, 62],
  [Reactions.RICH, 63],
  [Reactions.BEER, 99],
]);

/**
 * The service map's endpoints the channel uses, as Zalo answers them: every body is a form with
 * one `params` field, AES-encrypted with the session key; every answer is Zalo's envelope.
 * Sending (`/api/message/sms|quote`, `/api/group/sendmsg|mention|quote`), reactions
 * (`/api/message|group/reaction`), typing and group info (`/api/group/getmg-v2`).
 */
export function addApiRoutes(server: FakeServer, options: ApiRoutesOptions): void {
  const { state } = options;
  const route = (path: string, handle: ZaloHandler) => zaloRoute(server, options, "POST", path, handle);

  const send = (kind: "user" | "group", params: Params): FakeMessage | FakeResponse => {
    const threadId = String(kind === "group" ? params.grid : params.toid);
    if (kind === "group" ? !state.groups.has(threadId) : !state.users.has(threadId)) {
      return refuse(114, `no ${kind} ${threadId}`);
    }
    const text = String(params.message ?? "");
    if (text === "" || text.length > FAKE_MAX_TEXT) return refuse(114, "message is empty or too long");
    const quoted = params.qmsgId === undefined ? undefined : state.messages.get(String(params.qmsgId));
    if (params.qmsgId !== undefined && (!quoted || String(quoted.cliMsgId) !== String(params.qmsgCliId))) {
      return refuse(114, `no message ${String(params.qmsgId)} to quote`);
    }
    const mentions = typeof params.mentionInfo === "string" ? JSON.parse(params.mentionInfo) : undefined;
    const message = state.addMessage({
      cliMsgId: String(params.clientId),
      threadId,
      kind,
      uidFrom: state.bot.id,
      text,
      ts: Date.now(),
      ...(mentions ? { mentions } : {}),
      ...(quoted ? { quoteOf: quoted.msgId } : {}),
    });
    options.echoMessage(message);
    return message;
  };
  const sent = (session: FakeSession, result: FakeMessage | FakeResponse) =>
    "msgId" in result ? answer(session, { msgId: Number(result.msgId) }) : result;

  route("/api/message/sms", (params, session) => sent(session, send("user", params)));
  route("/api/message/quote", (params, session) => sent(session, send("user", params)));
  route("/api/group/sendmsg", (params, session) => sent(session, send("group", params)));
  route("/api/group/mention", (params, session) => sent(session, send("group", params)));
  route("/api/group/quote", (params, session) => sent(session, send("group", params)));

  const react = (kind: "user" | "group") => (params: Params, session: FakeSession) => {
    const [item] = (params.react_list as { message: string }[] | undefined) ?? [];
    const body = JSON.parse(item?.message ?? "{}") as {
      rMsg?: { gMsgID: number; cMsgID: number }[];
      rIcon?: string;
      rType?: number;
    };
    const target = body.rMsg?.[0];
    const message = target ? state.messages.get(String(target.gMsgID)) : undefined;
    const threadId = String(kind === "group" ? params.grid : params.toid);
    if (!message || message.threadId !== threadId || String(message.cliMsgId) !== String(target?.cMsgID)) {
      return refuse(114, "the message to react to was not found");
    }
    const icon = body.rIcon ?? "";
    if (icon === "" && body.rType === -1) state.clearReactions(message.msgId, state.bot.id);
    else if (ICON_TYPES.get(icon) !== body.rType) return refuse(114, `unknown reaction ${icon} (${body.rType})`);
    else state.addReaction(message.msgId, state.bot.id, icon, body.rType as number);
    options.echoReaction(message, icon, body.rType ?? -1);
    return answer(session, { msgIds: [Number(state.nextMessageId())] });
  };
  route("/api/message/reaction", react("user"));
  route("/api/group/reaction", react("group"));

  route("/api/message/typing", (params, session) => {
    state.typing.push({ threadId: String(params.toid), kind: "user" });
    return answer(session, "");
  });
  route("/api/group/typing", (params, session) => {
    state.typing.push({ threadId: String(params.grid), kind: "group" });
    return answer(session, "");
  });

  route("/api/group/getmg-v2", (params, session) => {
    const wanted = Object.keys(JSON.parse(String(params.gridVerMap ?? "{}")) as Record<string, number>);
    const known = wanted.filter((id) => state.groups.has(id));
    const gridInfoMap = Object.fromEntries(
      known.map((id) => {
        const group = state.groups.get(id) as NonNullable<ReturnType<typeof state.groups.get>>;
        const members = group.memberIds.map((uid) => state.user(uid));
        return [
          id,
          {
            groupId: id,
            name: group.name,
            desc: "",
            type: 1,
            creatorId: group.memberIds[0] ?? "",
            version: "1",
            avt: "",
            fullAvt: "",
            memberIds: group.memberIds,
            adminIds: [],
            currentMems: members.map((m) => ({
              id: m.id,
              dName: m.name,
              zaloName: m.name,
              avatar: "",
              avatar_25: "",
              accountStatus: 0,
              type: 1,
            })),
            updateMems: [],
            admins: [],
            hasMoreMember: 0,
            subType: 0,
            totalMember: members.length,
            maxMember: 1000,
            createdTime: 1700000000000,
            visibility: 0,
            globalId: `G${id}`,
            e2ee: 0,
            extraInfo: { enable_media_store: 1 },
            memVerList: group.memberIds.map((uid) => `${uid}_0`),
            pendingApprove: { time: 0, uids: null },
          },
        ];
      }),
    );
    return answer(session, {
      removedsGroup: wanted.filter((id) => !known.includes(id)),
      unchangedsGroup: [],
      gridInfoMap,
    });
  });
}
