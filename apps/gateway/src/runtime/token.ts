import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** The API token: `gateway.auth.token`, else one generated once and kept in `<home>/gateway-token`. */
export async function resolveToken(
  configured: string | undefined,
  tokenFile: string,
): Promise<{ token: string; generated: boolean }> {
  if (configured) return { token: configured, generated: false };
  try {
    const stored = (await readFile(tokenFile, "utf8")).trim();
    if (stored.length >= 16) return { token: stored, generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomBytes(24).toString("base64url");
  await mkdir(dirname(tokenFile), { recursive: true, mode: 0o700 });
  await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
}
