import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { ChorusError } from "@chorus/core";
import { type AddressPolicy, blockedAddress } from "./address-guard.js";

/** The DNS answers for a host name: every address it has. */
export type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system's resolver (what `getaddrinfo` answers: /etc/hosts, then DNS). */
export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** `E_INVALID_INPUT` for an address a `url` source may not reach. */
export function addressRefused(what: string, address: string, label: string): ChorusError {
  return new ChorusError("E_INVALID_INPUT", `${what}: the address ${address} (${label}) is not allowed.`, {
    hint: "Media URLs must reach public addresses; media.allowPrivateUrls or media.allowHosts (host:port) allow others.",
    details: { address, reason: label },
  });
}

/**
 * Whether the policy lets the connection reach `address` on `port`: undefined for a public address,
 * `"allowed"` for another that `allowPrivateUrls` or `allowHosts` (the address with its port) lets
 * through; else the refusal.
 */
export function addressCheck(
  policy: AddressPolicy,
  what: string,
  address: string,
  port: string,
): ChorusError | "allowed" | undefined {
  const label = blockedAddress(address);
  if (label === undefined) return undefined;
  if (policy.allowPrivateUrls) return "allowed";
  const listed = address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
  if (policy.allowHosts.some((entry) => entry.toLowerCase() === listed.toLowerCase())) return "allowed";
  return addressRefused(what, address, label);
}

/**
 * A `lookup` for one connection that resolves the host once, refuses it when any of its addresses
 * may not be reached, and hands the connection exactly the addresses it checked: the DNS answer
 * is pinned, so a second answer (DNS rebinding) never reaches the socket.
 */
export function pinnedLookup(options: {
  resolve: Resolve;
  policy: AddressPolicy;
  port: string;
  what: string;
  /** Told when an address was let through only by an allowance (not a public one). */
  onAllowed?: () => void;
}): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    void (async () => {
      const answers = await options.resolve(hostname);
      if (answers.length === 0) throw new ChorusError("E_PLATFORM", `${options.what}: the host has no address.`);
      for (const answer of answers) {
        const checked = addressCheck(options.policy, options.what, answer.address, options.port);
        if (checked === "allowed") options.onAllowed?.();
        else if (checked) throw checked;
      }
      const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined;
      const usable = family === undefined ? answers : answers.filter((answer) => answer.family === family);
      if (usable.length === 0)
        throw new ChorusError("E_PLATFORM", `${options.what}: the host has no IPv${family} address.`);
      return usable;
    })().then(
      (usable) => {
        if (lookupOptions.all) callback(null, [...usable]);
        else callback(null, (usable[0] as LookupAddress).address, (usable[0] as LookupAddress).family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, "", 0),
    );
  };
}
