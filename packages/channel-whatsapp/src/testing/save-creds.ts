import type { AuthenticationCreds } from "@whiskeysockets/baileys";
import { authDirOf, openAuthState } from "../link/auth-state.js";

/**
 * Writes credentials of an already linked device where an instance with this `stateDir` (and
 * `authDir`, if configured) reads them, the way the plugin itself writes them. For tests that
 * start an instance against the fake, e.g. with `fake.linkedCreds()`.
 */
export async function saveLinkedCreds(
  stateDir: string,
  creds: AuthenticationCreds,
  config: { authDir?: string | undefined } = {},
): Promise<void> {
  const auth = await openAuthState(authDirOf(config, stateDir));
  Object.assign(auth.state.creds, creds);
  await auth.saveCreds();
}
