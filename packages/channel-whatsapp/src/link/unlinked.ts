import { ChorusError } from "@chorus/core";

/** The command that links this account: `chorus channels login whatsapp [--account <id>]`. */
export function loginCommand(accountId: string): string {
  return `chorus channels login whatsapp${accountId === "default" ? "" : ` --account ${accountId}`}`;
}

/** Why an account without a linked device does nothing, in words a person can act on. */
export function notLinkedDetail(accountId: string): string {
  return `not linked: run \`${loginCommand(accountId)}\` and scan the QR code with WhatsApp on your phone; this account connects as soon as it is linked`;
}

/** Why an account that WhatsApp logged out does nothing any more. */
export function loggedOutDetail(accountId: string): string {
  return (
    "logged out: WhatsApp removed this linked device (unlinked on the phone, or linked elsewhere too long ago); " +
    `the stored credentials were deleted. Link again with \`${loginCommand(accountId)}\`; this account connects as soon as it is linked`
  );
}

/** The error every operation of an account without a usable link fails with. */
export function unlinkedError(detail: string, accountId: string): ChorusError {
  return new ChorusError("E_AUTH", `WhatsApp is ${detail}`, { hint: `Run: ${loginCommand(accountId)}` });
}
