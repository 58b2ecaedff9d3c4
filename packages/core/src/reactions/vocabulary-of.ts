import { ReactionVocabulary } from "../emoji/vocabulary.js";
import type { ChannelPlugin } from "../plugin/plugin.js";

const fromNames = new WeakMap<readonly string[], ReactionVocabulary>();

/** A vocabulary of the bare names a plugin declares in `capabilities.reactions.vocabulary`, built once per list. */
export function vocabularyFromNames(names: readonly string[]): ReactionVocabulary {
  let vocabulary = fromNames.get(names);
  if (!vocabulary) {
    vocabulary = new ReactionVocabulary(names);
    fromNames.set(names, vocabulary);
  }
  return vocabulary;
}

/**
 * The closed reaction vocabulary of a channel: the plugin's own (with its emoji mapping), else one
 * built from the names its capabilities declare; `undefined` where any emoji goes.
 */
export function vocabularyOf(
  plugin: Pick<ChannelPlugin, "capabilities" | "vocabulary">,
): ReactionVocabulary | undefined {
  if (plugin.vocabulary) return plugin.vocabulary;
  const names = plugin.capabilities.reactions.vocabulary;
  return names === undefined || names.length === 0 ? undefined : vocabularyFromNames(names);
}
