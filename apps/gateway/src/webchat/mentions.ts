import type { WebchatUser } from "./types.js";

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Ids of the candidates mentioned as `@Name` in `text` (case-insensitive, longest name wins,
 * not inside a word or an e-mail address), in order of first mention, each once.
 */
export function findMentions(text: string, candidates: readonly WebchatUser[]): string[] {
  const names = candidates
    .filter((user) => user.name !== "")
    .map((user) => ({ id: user.id, name: user.name.toLocaleLowerCase() }))
    .sort((a, b) => b.name.length - a.name.length);
  const found: string[] = [];
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at > 0 && WORD_CHAR.test(text.charAt(at - 1))) continue;
    const match = names.find(({ name }) => {
      const end = at + 1 + name.length;
      return text.slice(at + 1, end).toLocaleLowerCase() === name && !WORD_CHAR.test(text.charAt(end));
    });
    if (match && !found.includes(match.id)) found.push(match.id);
  }
  return found;
}
