import { type BaileysClient, type BaileysClientOptions, connectBaileys } from "./baileys-client.js";
import { createFakeWhatsApp, type FakeWhatsApp, type FakeWhatsAppOptions } from "./fake-whatsapp.js";

/** A started fake plus the raw Baileys clients opened on it; `close()` ends them all. */
export interface FakeSession {
  readonly fake: FakeWhatsApp;
  /** Opens a Baileys socket on the fake; default credentials: a newly linked device. */
  connect(options?: Partial<BaileysClientOptions>): BaileysClient;
  /** Same, and waits until Baileys reports the connection open. */
  connectOpen(options?: Partial<BaileysClientOptions>): Promise<BaileysClient>;
  close(): Promise<void>;
}

/** Starts a fake WhatsApp for one test. */
export async function openFakeSession(options?: FakeWhatsAppOptions): Promise<FakeSession> {
  const fake = createFakeWhatsApp(options);
  await fake.start();
  const clients: BaileysClient[] = [];
  const connect = (extra: Partial<BaileysClientOptions> = {}): BaileysClient => {
    const client = connectBaileys({ url: fake.url, creds: extra.creds ?? fake.linkedCreds(), ...extra });
    clients.push(client);
    return client;
  };
  return {
    fake,
    connect,
    async connectOpen(extra) {
      const client = connect(extra);
      await client.opened();
      return client;
    },
    async close() {
      for (const client of clients.splice(0)) await client.end();
      await fake.close();
    },
  };
}

/** How long tests wait for Baileys or the fake to act: generous, CI machines are small and shared. */
export const PATIENCE = { timeoutMs: 15_000 };
