/** A device linked to the bot's account (Baileys is one): what WhatsApp remembers about it. */
export interface Companion {
  /** The device number in `<phone>:<device>@s.whatsapp.net`. */
  readonly device: number;
  /** Its long-term Noise key: how the server recognises it at login. */
  readonly noiseKey: Uint8Array;
  readonly identityKey: Uint8Array;
  /** Set by `logOut()` or the companion logging itself out: logins then fail with 401. */
  removed: boolean;
  /** A freshly linked device gets the phone's initial history sync at its first login. */
  awaitingInitialSync: boolean;
}

/** The companion devices linked to the bot's account. */
export class Companions {
  readonly #devices = new Map<number, Companion>();
  #nextDevice = 1;

  link(noiseKey: Uint8Array, identityKey: Uint8Array, awaitingInitialSync: boolean): Companion {
    const companion: Companion = {
      device: this.#nextDevice++,
      noiseKey: Buffer.from(noiseKey),
      identityKey: Buffer.from(identityKey),
      removed: false,
      awaitingInitialSync,
    };
    this.#devices.set(companion.device, companion);
    return companion;
  }

  get(device: number): Companion | undefined {
    return this.#devices.get(device);
  }

  /** Devices still linked. */
  active(): Companion[] {
    return [...this.#devices.values()].filter((companion) => !companion.removed);
  }

  removeAll(): void {
    for (const companion of this.#devices.values()) companion.removed = true;
  }
}
