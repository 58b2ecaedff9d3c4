import {
  type ChannelInstance,
  type ChannelPlugin,
  type MessageRef,
  performReaction,
  type ReactionCapabilities,
  type ReactResult,
} from "@chorus/core";
import type { RunningChannel } from "../context.js";
import type { ChannelContractFixture, ContractEmoji, ContractFixture } from "./types.js";
import { ContractViolation, check, show } from "./violation.js";

/** What one contract case works with: fresh messages, reacting through core, the platform's state. */
export class CaseHarness<F extends ContractFixture = ContractFixture> {
  readonly caps: ReactionCapabilities;
  /** Everything the plugin reported during the run (errors, statuses), for the secrets check. */
  readonly observed: unknown[] = [];
  #messages = 0;
  readonly #forms = new Map<string, string>();

  constructor(
    readonly plugin: ChannelPlugin<unknown>,
    readonly running: RunningChannel,
    readonly fixture: F,
    readonly emoji: ContractEmoji,
    readonly stepTimeoutMs = 20_000,
  ) {
    this.caps = plugin.capabilities.reactions;
  }

  /** The running instance (a new one after each restart). */
  get instance(): ChannelInstance {
    return this.running.instance;
  }

  /** A new message nobody has reacted to. */
  async fresh(): Promise<MessageRef> {
    const index = ++this.#messages;
    if (this.fixture.createMessage) return this.fixture.createMessage(this.instance, index);
    return this.instance.send(this.fixture.conversation, { text: `contract suite target ${index}` });
  }

  /** A `react` call as an agent makes it: core's rules, then the plugin. */
  async react(ref: MessageRef, call: Record<string, unknown>): Promise<ReactResult> {
    return this.record(performReaction({ plugin: this.plugin, instance: this.instance, ref, call }));
  }

  /** Stops the instance and starts a new one on the same store and state (a gateway restart). */
  async restart(): Promise<void> {
    await this.within("restarting the instance", this.record(this.running.restart()));
  }

  /** Keeps what an operation threw and the status after it, for the secrets check. */
  async record<T>(operation: Promise<T>): Promise<T> {
    try {
      return await operation;
    } catch (error) {
      this.observed.push(error);
      throw error;
    } finally {
      this.observe();
    }
  }

  /** Keeps the instance's current status. */
  observe(): void {
    try {
      this.observed.push(this.instance.status());
    } catch (error) {
      this.observed.push(error);
    }
  }

  /** Fails the case when `operation` takes longer than the step timeout. */
  async within<T>(what: string, operation: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        operation,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ContractViolation(`${what} did not end within ${this.stepTimeoutMs} ms`)),
            this.stepTimeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async state(ref: MessageRef): Promise<string[]> {
    return [...(await this.fixture.botReactions(ref))];
  }

  /** How the platform holds `emoji` once the bot added it alone (learned, then remembered). */
  async form(emoji: string): Promise<string> {
    const known = this.#forms.get(emoji);
    if (known !== undefined) return known;
    const ref = await this.fresh();
    await this.react(ref, { emoji });
    const state = await this.state(ref);
    check(
      state.length === 1,
      `adding ${emoji} to a fresh message should leave one reaction, the platform shows ${show(state)}`,
    );
    this.#forms.set(emoji, state[0] as string);
    return state[0] as string;
  }

  /** A fresh message carrying the bot's `first` reaction, plus `second` where several fit. */
  async withReactions(both: boolean): Promise<{ ref: MessageRef; expected: string[] }> {
    const ref = await this.fresh();
    await this.react(ref, { emoji: this.emoji.first });
    const expected = [await this.form(this.emoji.first)];
    if (both && !this.caps.singleSlot) {
      await this.react(ref, { emoji: this.emoji.second });
      expected.push(await this.form(this.emoji.second));
    }
    return { ref, expected };
  }
}

/** The harness of a whole-channel contract run. */
export type ChannelHarness = CaseHarness<ChannelContractFixture>;
