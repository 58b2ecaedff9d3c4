import {
  type ChannelInstance,
  type ChannelPlugin,
  type MessageRef,
  performReaction,
  type ReactionCapabilities,
  type ReactResult,
} from "@chorus/core";
import type { ContractEmoji, ContractFixture } from "./types.js";
import { check, show } from "./violation.js";

/** What one contract case works with: fresh messages, reacting through core, the platform's state. */
export class CaseHarness {
  readonly caps: ReactionCapabilities;
  #messages = 0;
  readonly #forms = new Map<string, string>();

  constructor(
    readonly plugin: ChannelPlugin<unknown>,
    readonly instance: ChannelInstance,
    readonly fixture: ContractFixture,
    readonly emoji: ContractEmoji,
  ) {
    this.caps = plugin.capabilities.reactions;
  }

  /** A new message nobody has reacted to. */
  async fresh(): Promise<MessageRef> {
    const index = ++this.#messages;
    if (this.fixture.createMessage) return this.fixture.createMessage(this.instance, index);
    return this.instance.send(this.fixture.conversation, { text: `contract suite target ${index}` });
  }

  /** A `react` call as an agent makes it: core's rules, then the plugin. */
  react(ref: MessageRef, call: Record<string, unknown>): Promise<ReactResult> {
    return performReaction({ plugin: this.plugin, instance: this.instance, ref, call });
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
