import type { ChatType } from "@chorus/core";

/** chat.db's `style` of a group chat (45 is a one-to-one chat). */
const GROUP_STYLE = 43;

/**
 * The kind of chat a GUID names: `<service>;-;<handle>` is one-to-one, `<service>;+;<chat id>`
 * a group (`iMessage`, `SMS`, `RCS` or `any` as the service). The chat's `style` decides when
 * the GUID has neither form.
 */
export function chatKind(chatGuid: string, style?: number | null): ChatType {
  const marker = chatGuid.split(";")[1];
  if (marker === "+") return "group";
  if (marker === "-") return "direct";
  return style === GROUP_STYLE ? "group" : "direct";
}

/** The handle of a one-to-one chat GUID (`iMessage;-;+15551234567` → `+15551234567`). */
export function directHandle(chatGuid: string): string | undefined {
  const parts = chatGuid.split(";");
  return parts.length >= 3 && parts[1] === "-" ? parts.slice(2).join(";") : undefined;
}

/** The chat GUID of a direct conversation with `handle` on iMessage. */
export function directChatGuid(handle: string): string {
  return `iMessage;-;${handle}`;
}

/**
 * A handle's phone number in E.164 (`+15551234567`), when it is one; e-mail handles have none.
 * Formatting (spaces, dashes, brackets) is dropped; a number without `+` is taken as it is
 * written only when it is long enough to carry a country code.
 */
export function e164Of(address: string): string | undefined {
  if (address.includes("@")) return undefined;
  const trimmed = address.trim();
  const digits = trimmed.replace(/[\s().-]/gu, "");
  if (/^\+[1-9]\d{6,14}$/u.test(digits)) return digits;
  if (/^00[1-9]\d{6,14}$/u.test(digits)) return `+${digits.slice(2)}`;
  if (/^[1-9]\d{10,14}$/u.test(digits)) return `+${digits}`;
  return undefined;
}

/** A handle as a stable id: E.164 for phone numbers, lower-cased e-mail otherwise. */
export function handleId(address: string): string {
  return e164Of(address) ?? address.trim().toLowerCase();
}
