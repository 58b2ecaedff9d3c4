import { type AuthenticationCreds, createSignalIdentity, initAuthCreds } from "@whiskeysockets/baileys";
import { issueDeviceIdentity, linkedAccount } from "./adv.js";
import type { Companions } from "./companions.js";
import type { Member } from "./directory.js";

/**
 * Baileys credentials of a companion device already linked to the bot's account: what Baileys
 * would have stored after a QR scan and one full sync (so it does not wait for history again).
 */
export function linkedCreds(bot: Member, companions: Companions): AuthenticationCreds {
  const creds = initAuthCreds();
  const companion = companions.link(creds.noiseKey.public, creds.signedIdentityKey.public, false);
  const identity = issueDeviceIdentity(bot.phoneDevice.identityKey, creds.signedIdentityKey.public, companion.device);
  const lid = `${bot.lid}:${companion.device}@lid`;
  creds.me = { id: `${bot.phone}:${companion.device}@s.whatsapp.net`, lid, name: bot.name };
  creds.account = linkedAccount(identity, creds.signedIdentityKey);
  creds.signalIdentities = [createSignalIdentity(lid, identity.accountSignatureKey)];
  creds.platform = "android";
  creds.registered = true;
  creds.accountSyncCounter = 1;
  return creds;
}
