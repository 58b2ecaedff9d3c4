/**
 * First-party channel packages that are published, `@chorus/channel-<id>`: what `chorus` tells
 * people to install for these ids. Add an id here in the change that publishes its package (a test
 * checks this list against the workspace's channel packages); any other id gets the third-party
 * name, `chorus-channel-<id>`.
 */
export const FIRST_PARTY_CHANNEL_IDS = [
  "discord",
  "feishu",
  "imessage",
  "nextcloud",
  "signal",
  "slack",
  "telegram",
  "whatsapp",
  "zalouser",
] as const;

/** The npm package to install for a channel id: first-party where one is published, else `chorus-channel-<id>`. */
export function installSpecFor(id: string): string {
  return (FIRST_PARTY_CHANNEL_IDS as readonly string[]).includes(id) ? `@chorus/channel-${id}` : `chorus-channel-${id}`;
}
