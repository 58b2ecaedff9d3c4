import { anySignal, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  type ChannelLoginContext,
  type ChannelLoginResult,
  ChorusError,
  isChorusError,
  type LoginOption,
} from "@chorus/core";
import { SignalRpc } from "./client.js";
import { SIGNAL_SECRET_KEYS, type SignalConfig } from "./config.js";
import { daemonAnswers, SignalDaemon } from "./daemon.js";
import { RPC } from "./errors.js";

/** The options of `chorus channels login signal`. */
export const LOGIN_OPTIONS: readonly LoginOption[] = [
  { name: "device-name", value: "<name>", description: 'how the phone lists this linked device (default "Chorus")' },
];

/** How long the phone may take to scan the code: signal-cli gives up itself before this. */
const LINK_WAIT_MS = 15 * 60_000;
const multi = { withoutAccount: true } as const;

/**
 * Links the number as a secondary device (`chorus channels login signal`): `startLink` gives a
 * `sgnl://linkdevice?…` URI, shown as a QR code to scan with Signal on the phone, and `finishLink`
 * waits until the phone did. Linking needs signal-cli in multi-account mode (a daemon started
 * without `-a`); with `autoStart` the login starts one for the time it takes.
 */
export async function linkDevice(ctx: ChannelLoginContext<SignalConfig>): Promise<ChannelLoginResult> {
  const { config } = ctx;
  const redactor = new Redactor(secretsOf(config, SIGNAL_SECRET_KEYS));
  const deviceName = ctx.options["device-name"]?.trim() || "Chorus";
  const lifetime = new AbortController();
  const signal = anySignal([ctx.signal, lifetime.signal]);
  let daemon: SignalDaemon | undefined;
  try {
    if (config.autoStart && !(await daemonAnswers(config.httpUrl))) {
      daemon = new SignalDaemon({ config, logger: ctx.logger, signal, multiAccount: true });
      await daemon.start();
    }
    const rpc = new SignalRpc(config, { signal, redactor });
    const accounts = await rpc
      .call<{ number: string }[]>("listAccounts", {}, { ...multi, idempotent: true })
      .catch((error: unknown) => {
        throw singleAccountDaemon(error, config);
      });
    if (accounts.some((a) => a.number === config.account)) {
      ctx.print(
        `Signal is already linked as ${config.account}. To link again, remove "${deviceName}" under Linked devices on the phone and delete the account from signal-cli's data first.`,
      );
      return { account: config.account };
    }
    const { deviceLinkUri } = await rpc.call<{ deviceLinkUri: string }>(
      "startLink",
      {},
      { ...multi, operation: "start linking" },
    );
    ctx.showQr(deviceLinkUri);
    ctx.print("On the phone: Signal → Settings → Linked devices → Link new device, then scan the code.");
    const linked = await rpc
      .call<{ number?: string }>(
        "finishLink",
        { deviceLinkUri, deviceName },
        { ...multi, operation: "wait for the phone to scan the code", timeoutMs: LINK_WAIT_MS, retries: 0 },
      )
      .catch((error: unknown) => {
        throw linkFailure(error, signal);
      });
    const number = linked.number ?? config.account;
    if (number !== config.account) {
      ctx.print(
        `The phone linked ${number}, but channels.signal.account is ${config.account}: set account to ${number}.`,
      );
    }
    ctx.print("Start the gateway (chorus start), or restart it, to use this number.");
    return { account: number };
  } finally {
    lifetime.abort();
    await daemon?.stop();
  }
}

/** A daemon started with `-a` has no `listAccounts`/`startLink`: linking needs one without. */
function singleAccountDaemon(error: unknown, config: SignalConfig): unknown {
  if (!isChorusError(error) || error.code !== "E_UNSUPPORTED") return error;
  return new ChorusError(
    "E_UNSUPPORTED",
    `the signal-cli daemon at ${config.httpUrl} serves one account and cannot link`,
    {
      hint: `Stop it (and a gateway using it), then run \`signal-cli daemon --http ${new URL(config.httpUrl).host}\` without -a while linking, or set autoStart: true.`,
      cause: error,
    },
  );
}

/** Why the phone did not link: the code expired, the link was refused, or the person gave up. */
function linkFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return new ChorusError("E_AUTH", "login cancelled");
  if (!isChorusError(error)) return error;
  const rpcCode = Number((error.details as { platformCode?: string } | undefined)?.platformCode);
  const again = "Run `chorus channels login signal` again and scan the new code within a minute.";
  if (/timed out/i.test(error.message)) {
    return new ChorusError("E_AUTH", "the link code expired before the phone scanned it", {
      hint: again,
      cause: error,
    });
  }
  if (/already exists/i.test(error.message)) {
    return new ChorusError("E_AUTH", "signal-cli already has data for this number, so it refused to link it again", {
      hint: "Delete that account's data as signal-cli's message says (or use it as it is), then run the command again.",
      cause: error,
    });
  }
  if (rpcCode === RPC.IO_ERROR || rpcCode === RPC.USER_ERROR) {
    return new ChorusError(
      "E_AUTH",
      `the phone did not link this device (${error.message.replace(/^signal-cli: /, "")})`,
      {
        hint: `The link was refused on the phone or broke off. ${again}`,
        cause: error,
      },
    );
  }
  return error;
}
