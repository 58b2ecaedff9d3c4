import { type ChannelPlugin, ChorusError } from "@chorus/core";

/**
 * The values of a plugin's declared login options from the words after `chorus channels login
 * <channel>` (`--phone 4915…` or `--phone=4915…`); anything else is an error that lists what the
 * channel takes.
 */
export function parseLoginOptions(plugin: ChannelPlugin<unknown>, words: readonly string[]): Record<string, string> {
  const declared = new Map((plugin.loginOptions ?? []).map((option) => [option.name, option]));
  const takes = () =>
    declared.size === 0
      ? `${plugin.label} takes no login options`
      : `${plugin.label} takes ${[...declared.values()].map((o) => `--${o.name} ${o.value} (${o.description})`).join(", ")}`;
  const values: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/u.exec(word);
    const option = match ? declared.get(match[1] as string) : undefined;
    if (!match || !option) {
      throw new ChorusError("E_INVALID_INPUT", `unknown login option ${JSON.stringify(word)}: ${takes()}`);
    }
    const value = match[2] ?? words[++i];
    if (value === undefined || value === "" || value.startsWith("--")) {
      throw new ChorusError("E_INVALID_INPUT", `--${option.name} needs a value: ${option.value}`);
    }
    values[option.name] = value;
  }
  return values;
}
