/** One channel account's name across the gateway: the registry's key, its lease's name, its fence. */
export type AccountKey = string & { readonly __accountKey: true };

/** The key of a channel account, `<channel>:<account>` (the lease names stored in the state database). */
export function accountKey(channel: string, accountId: string): AccountKey {
  return `${channel}:${accountId}` as AccountKey;
}
