import { ChorusError } from "@chorus/core";
import type { API } from "zca-js";
import { decryptAes, sessionKey } from "./crypto.js";
import type { CallFacts } from "./transport.js";

/**
 * The client id zca-js gave the message a call sent: it is only in the encrypted `params` of the
 * call's last form body (zca-js returns the message id alone).
 */
export function clientIdOf(facts: CallFacts, api: API): string {
  const params = facts.sentParams.at(-1);
  const secretKey = api.getContext().secretKey;
  if (!params || !secretKey) throw new ChorusError("E_PLATFORM", "the sent message's client id is unknown");
  const { clientId } = JSON.parse(decryptAes(sessionKey(secretKey), params)) as { clientId?: unknown };
  if (clientId === undefined) throw new ChorusError("E_PLATFORM", "the sent message carries no client id");
  return String(clientId);
}
