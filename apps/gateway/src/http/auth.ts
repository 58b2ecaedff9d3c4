import { safeEqual } from "@chorus/channel-kit";

/** Whether `header` is `Bearer <token>` for the gateway's token (constant-time comparison). */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  return safeEqual(header.slice("Bearer ".length).trim(), token);
}
