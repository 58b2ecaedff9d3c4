import { cleanLine } from "./history.js";

/** What the group introduction of the system prompt is made from; subject and members when known. */
export interface GroupIntroInput {
  /** The channel's label (`WhatsApp`). */
  channelLabel: string;
  /** The group's name. */
  subject?: string;
  /** Members' display names. */
  members?: readonly string[];
  activation: "mention" | "always";
}

/** Names listed before the rest are summed up as "and N others". */
const MAX_LISTED_MEMBERS = 30;

/**
 * The group introduction added to the system prompt on a group session's first turn and after
 * `/activation` (DESIGN §4): where the agent is, who is there, when it is woken, whom to address.
 */
export function groupIntro(input: GroupIntroInput): string {
  const channel = cleanLine(input.channelLabel, 40) || "chat";
  const subject = cleanLine(input.subject ?? "", 100).replace(/"/g, "'");
  const names = (input.members ?? []).map((member) => cleanLine(member)).filter((name) => name !== "");
  const sentences = [
    subject === ""
      ? `You are replying inside a ${channel} group chat.`
      : `You are replying inside the ${channel} group "${subject}".`,
  ];
  if (names.length > 0) sentences.push(`Group members: ${listMembers(names)}.`);
  if (input.activation === "always") {
    sentences.push(
      "Activation: always-on (you receive every message in this group, mentioned or not).",
      "When no reply is needed, answer exactly NO_REPLY and nothing else: nothing is sent then.",
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
