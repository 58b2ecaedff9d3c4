import { describe, expect, it } from "vitest";
import { type CharSet, intersects, parseRegex, type RegexNode } from "./regex-parse.js";

/** The sets of a plain sequence of single characters. */
function sets(source: string): CharSet[] {
  const { tree } = parseRegex(source);
  if (tree.kind !== "seq") throw new Error(`expected a sequence, got ${tree.kind}`);
  return tree.items.map((item: RegexNode) => {
    if (item.kind !== "char") throw new Error(`expected a character, got ${item.kind}`);
    return item.set;
  });
}

const code = (char: string) => char.charCodeAt(0);

describe("parseRegex", () => {
  it("parses alternatives, groups, quantifiers and zero-width parts", () => {
    const { tree } = parseRegex("^(?:ab|c)+?x{2,5}\\b$");
    expect(tree.kind).toBe("seq");
    if (tree.kind !== "seq") return;
    expect(tree.items.map((item) => item.kind)).toEqual(["empty", "repeat", "repeat", "empty", "empty"]);
    const [, lazy, counted] = tree.items;
    expect(lazy).toMatchObject({ kind: "repeat", min: 1, max: Number.POSITIVE_INFINITY, body: { kind: "alt" } });
    expect(counted).toMatchObject({ kind: "repeat", min: 2, max: 5 });
  });

  it("treats a { that is not a quantifier as a character, and reads backreferences", () => {
    const { tree } = parseRegex("a{,3}(x)\\1\\k<n>");
    if (tree.kind !== "seq") throw new Error("expected a sequence");
    expect(tree.items.map((item) => item.kind)).toEqual(["char", "char", "char", "char", "char", "seq", "ref", "ref"]);
  });

  it("records the span of every outermost lookbehind", () => {
    const source = "(?<!\\w)x(?<=a(?<=b))y(?=z)";
    const { lookbehinds } = parseRegex(source);
    expect(lookbehinds.map(([start, end]) => source.slice(start, end))).toEqual(["(?<!\\w)", "(?<=a(?<=b))"]);
  });

  it("reads bracket classes: ranges, negation, escapes, a literal - and ]", () => {
    const [range, negated, escapes, dash] = sets("[a-f][^0-9][\\d\\t\\x41\\u00e9\\b][\\]a-]");
    expect(range?.test(code("c"))).toBe(true);
    expect(range?.test(code("C"))).toBe(true); // case-insensitive
    expect(range?.test(code("g"))).toBe(false);
    expect(negated?.test(code("5"))).toBe(false);
    expect(negated?.test(code("x"))).toBe(true);
    for (const char of ["7", "\t", "a", "\u00c9", "\b"]) expect(escapes?.test(code(char)), char).toBe(true);
    expect(escapes?.test(code("b"))).toBe(false);
    for (const char of ["]", "a", "-"]) expect(dash?.test(code(char)), char).toBe(true);
  });

  it("reads escapes outside classes: \\w \\s . and controls", () => {
    const [word, space, dot, newline, control] = sets("\\w\\s.\\n\\cJ");
    expect(word?.test(code("_"))).toBe(true);
    expect(space?.test(0x3000)).toBe(true);
    expect(dot?.test(10)).toBe(false);
    expect(dot?.test(code("é"))).toBe(true);
    expect(newline?.test(10)).toBe(true);
    expect(control?.test(10)).toBe(true);
  });
});

describe("intersects", () => {
  it("finds shared characters, also far from ASCII and across case", () => {
    const [han, word, upper, lower, cyr, cyrPart, space, notSpace] = sets(
      "[\\u4e00-\\u9fff]\\w[A-C][c-e][\\u0400-\\u04ff][\\u0450-\\u0451]\\s\\S",
    );
    expect(intersects(han as CharSet, word as CharSet)).toBe(false);
    expect(intersects(upper as CharSet, lower as CharSet)).toBe(true);
    expect(intersects(cyr as CharSet, cyrPart as CharSet)).toBe(true);
    expect(intersects(space as CharSet, notSpace as CharSet)).toBe(false);
    expect(intersects(notSpace as CharSet, han as CharSet)).toBe(true);
  });
});
