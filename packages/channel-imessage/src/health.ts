import { ChorusError } from "@chorus/core";
import type { BlueBubblesClient } from "./client.js";

/** The events the plugin's webhook asks BlueBubbles for. */
export const WEBHOOK_EVENTS = ["new-message", "updated-message"];

/** What a server check found: everything `chorus doctor` and the channel status report. */
export interface ServerHealth {
  reachable: boolean;
  /** The password was accepted. */
  authorized: boolean;
  /** The Private API is enabled and its helper connected (tapbacks, replies, typing). */
  privateApi: boolean;
  /** Our webhook URL is registered with the server (or registration is off). */
  webhook: "registered" | "added" | "missing" | "not-managed";
  serverVersion?: string;
  /** The Apple ID the server's Messages app is signed in with. */
  account?: string;
  /** Each problem in words, with what to do about it; empty when all is well. */
  problems: string[];
}

/**
 * Checks a BlueBubbles server: reachable, password accepted, Private API enabled and connected,
 * and (when `webhookUrl` is given and `register` is true) our webhook registered — adding it
 * when it is missing. Auth and network failures are reported, not thrown.
 */
export async function checkServer(
  client: BlueBubblesClient,
  webhook: { url: string; register: boolean } | undefined,
): Promise<ServerHealth> {
  const health: ServerHealth = {
    reachable: false,
    authorized: false,
    privateApi: false,
    webhook: "not-managed",
    problems: [],
  };
  try {
    const info = await client.serverInfo();
    health.reachable = true;
    health.authorized = true;
    if (info.server_version) health.serverVersion = info.server_version;
    const account = info.detected_imessage || info.detected_icloud;
    if (account) health.account = account;
    health.privateApi = info.private_api === true && info.helper_connected !== false;
    if (info.private_api !== true) {
      health.problems.push(
        "the Private API is disabled: tapbacks, replies and typing need it (BlueBubbles settings → Private API)",
      );
    } else if (info.helper_connected === false) {
      health.problems.push("the Private API helper is not connected: restart Messages or the BlueBubbles server");
    }
    if (webhook?.register) health.webhook = await ensureWebhook(client, webhook.url);
  } catch (error) {
    const failure = error instanceof ChorusError ? error : undefined;
    if (failure?.code === "E_AUTH") {
      health.reachable = true;
      health.problems.push("the server refused the password: check channels.imessage.password");
    } else if (health.reachable) {
      health.webhook = "missing";
      health.problems.push(`the webhook could not be registered: ${(error as Error).message}`);
    } else if (failure?.details?.network === true) {
      health.problems.push(`the server is unreachable: ${(error as Error).message}`);
    } else {
      health.problems.push(`the server could not be checked: ${(error as Error).message}`);
    }
  }
  return health;
}

async function ensureWebhook(client: BlueBubblesClient, url: string): Promise<ServerHealth["webhook"]> {
  const existing = await client.listWebhooks();
  if (existing.some((hook) => hook.url === url)) return "registered";
  await client.addWebhook(url, WEBHOOK_EVENTS);
  return "added";
}
