import { Companions } from "./companions.js";
import type { FakeConnection } from "./connection.js";
import { type FakeContext, reportProblem } from "./context.js";
import { Delivery } from "./delivery.js";
import { Directory } from "./directory.js";
import type { FakeWhatsAppOptions } from "./fake-whatsapp-api.js";
import { IqFaults } from "./faults.js";
import { FakeMediaHost } from "./media-host.js";
import { MessageStore } from "./message-store.js";
import { StanzaLog } from "./stanza-log.js";

/** The fake's state at its start: the bot's account, empty chats, no connection, no fault. */
export function createFakeContext(options: FakeWhatsAppOptions): FakeContext {
  const connections = new Set<FakeConnection>();
  const ctx: FakeContext = {
    directory: new Directory({
      phone: options.botPhone ?? "15550001000",
      name: options.botName ?? "Chorus Bot",
      ...(options.botLid ? { lid: options.botLid } : {}),
    }),
    store: new MessageStore(),
    companions: new Companions(),
    connections,
    delivery: new Delivery(() => connections),
    log: new StanzaLog(),
    media: new FakeMediaHost(
      () => ctx.outage,
      (message, cause) => reportProblem(ctx, message, cause),
      options.maxUploadBytes,
    ),
    iqFaults: new IqFaults(),
    messageFaults: [],
    problems: [],
    loginFailures: [],
    logins: 0,
    outage: undefined,
  };
  return ctx;
}
