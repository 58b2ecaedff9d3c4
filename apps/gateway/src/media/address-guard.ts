import { BlockList, isIP } from "node:net";

/**
 * Addresses a `url` source may not reach (DESIGN §2.6 rule 1), each with what it is: the gateway's
 * own machine, the private networks around it, cloud metadata (169.254.169.254), and ranges that
 * are no single public host.
 */
const RANGES: readonly [label: string, network: string, prefix: number, family: "ipv4" | "ipv6"][] = [
  ["this network", "0.0.0.0", 8, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["shared (carrier-grade NAT)", "100.64.0.0", 10, "ipv4"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["benchmarking", "198.18.0.0", 15, "ipv4"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  ["unique local", "fc00::", 7, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["site-local", "fec0::", 10, "ipv6"],
  ["multicast", "ff00::", 8, "ipv6"],
];

const LISTS = RANGES.map(([label, network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { label, list, family };
});

/** The 8 groups of 16 bits of an IPv6 address (a trailing dotted IPv4 part included). */
function groupsOf(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...new Array<number>(Math.max(fill, 0)).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`). */
function embeddedIPv4(address: string): string | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4(g[6] as number, g[7] as number);
  if (zeros(6) && ((g[6] as number) > 0 || (g[7] as number) > 1)) return v4(g[6] as number, g[7] as number);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return v4(g[6] as number, g[7] as number);
  if (g[0] === 0x2002) return v4(g[1] as number, g[2] as number);
  return undefined;
}

/**
 * What an address is when a `url` source may not reach it (`loopback`, `private`, `link-local` …),
 * or undefined for a public address. IPv6 forms of IPv4 addresses are judged as the IPv4 address.
 */
export function blockedAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return "not an IP address";
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner !== undefined) return blockedAddress(inner);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  return LISTS.find((entry) => entry.family === type && entry.list.check(bare, type))?.label;
}

/** What a `url` source may reach besides public addresses: `media.allowPrivateUrls` and `media.allowHosts`. */
export interface AddressPolicy {
  readonly allowPrivateUrls: boolean;
  /** `host:port` pairs, lower case (`[::1]:8080` for IPv6). */
  readonly allowHosts: readonly string[];
}

/** `host:port` of a URL as `media.allowHosts` lists it (the scheme's port when none is written). */
export function hostPortOf(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname.toLowerCase()}:${port}`;
}

/** Whether the policy lets a URL reach whatever address its host has. */
export function allowedWhatever(policy: AddressPolicy, url: URL): boolean {
  if (policy.allowPrivateUrls) return true;
  const wanted = hostPortOf(url);
  return policy.allowHosts.some((entry) => entry.toLowerCase() === wanted);
}
