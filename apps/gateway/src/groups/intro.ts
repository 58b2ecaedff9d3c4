import type { Conversation, Participant } from "@chorus/core";
import type { ActivationMode, SessionSettings } from "../sessions/index.js";
import { NO_REPLY, oneLine } from "../support/index.js";

/*
 * The group introduction (DESIGN §4): its text, and when the system prompt gets it — on the first
 * turn of a group session, and again after `/activation`, `/new` or `/reset`. Its state is the
 * session setting `groupIntroduced`; only the functions below read or change it.
 */

/** What the group introduction of the system prompt is made from; subject and members when known. */
export interface GroupIntroInput {
  /** The channel's label (`WhatsApp`). */
  channelLabel: string;
  /** The group's name. */
  subject?: string;
  /** Members as the prompt lists them (`memberLabel`). */
  members?: readonly string[];
  activation: ActivationMode;
}

/** Names listed before the rest are summed up as "and N others". */
const MAX_LISTED_MEMBERS = 30;

/**
 * The group introduction added to the system prompt on a group session's first turn and after
 * `/activation` (DESIGN §4): where the agent is, who is there, when it is woken, whom to address.
 */
export function groupIntro(input: GroupIntroInput): string {
  const channel = oneLine(input.channelLabel, 40) || "chat";
  const subject = oneLine(input.subject ?? "", 100).replace(/"/g, "'");
  const names = (input.members ?? []).map((member) => oneLine(member)).filter((name) => name !== "");
  const sentences = [
    subject === ""
      ? `You are replying inside a ${channel} group chat.`
      : `You are replying inside the ${channel} group "${subject}".`,
  ];
  if (names.length > 0) sentences.push(`Group members: ${listMembers(names)}.`);
  if (input.activation === "always") {
    sentences.push(
      "Activation: always-on (you receive every message in this group, mentioned or not).",
      `When no reply is needed, answer exactly ${NO_REPLY} and nothing else: nothing is sent then.`,
      "Be selective: reply only when you are addressed or can clearly help.",
    );
  } else {
    sentences.push(
      "Activation: trigger-only (you are woken only when someone mentions you or replies to you;" +
        " the messages since your last reply are included as context).",
    );
  }
  sentences.push("Address the specific sender noted in the message context.");
  return sentences.join(" ");
}

function listMembers(names: readonly string[]): string {
  if (names.length <= MAX_LISTED_MEMBERS) return names.join(", ");
  const rest = names.length - MAX_LISTED_MEMBERS;
  return `${names.slice(0, MAX_LISTED_MEMBERS).join(", ")} and ${rest} other${rest === 1 ? "" : "s"}`;
}

/**
 * The introduction a triggered group turn carries: the group's, when the session has not had it
 * yet (its first turn, or the first after `/activation`, `/new` or `/reset`); else none.
 */
export function introFor(
  settings: SessionSettings,
  group: { channelLabel: string; conversation: Conversation; activation: ActivationMode },
): string | undefined {
  if (settings.groupIntroduced === true) return undefined;
  const { title, members } = group.conversation;
  return groupIntro({
    channelLabel: group.channelLabel,
    ...(title ? { subject: title } : {}),
    ...(members ? { members: members.filter((m) => !m.isBot).map(memberLabel) } : {}),
    activation: group.activation,
  });
}

/** Platform addresses that are a phone number (WhatsApp's `<digits>@s.whatsapp.net`, `@c.us`). */
const PHONE_ADDRESS = /^(\d{4,15})(?::\d+)?@(s\.whatsapp\.net|c\.us)$/;

/**
 * A member as the group intro lists them (DESIGN §4): `Name (+E164)`; the E.164 alone, or a
 * readable id, when the name is unknown — never a raw platform address (`…@s.whatsapp.net`).
 */
export function memberLabel(member: Participant): string {
  const name = oneLine(member.name ?? "");
  const digits = member.e164?.replace(/\D/g, "") || PHONE_ADDRESS.exec(member.id)?.[1] || "";
  const phone = digits === "" ? "" : `+${digits}`;
  if (name !== "" && phone !== "") return `${name} (${phone})`;
  if (name !== "" || phone !== "") return name || phone;
  const local = member.id.includes("@") ? member.id.slice(0, member.id.indexOf("@")) : member.id;
  return oneLine(local.replace(/:\d+$/, "")) || "someone";
}

/** The settings change once a turn carried the introduction: the session has it now. */
export const INTRODUCED: SessionSettings = Object.freeze({ groupIntroduced: true });

/** The settings change that has the next turn introduce the group again (`/activation`, `/new`, `/reset`). */
export const INTRODUCE_AGAIN: SessionSettings = Object.freeze({ groupIntroduced: false });
