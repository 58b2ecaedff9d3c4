import type { Page } from "playwright-core";

/** One element's text colour against what is behind it, as the page shows it. */
export interface ContrastPair {
  /** The selector it was found by, and its text (or label). */
  what: string;
  /** `rgb(r, g, b)` after blending. */
  text: string;
  background: string;
  /** The WCAG contrast ratio, 1 to 21. */
  ratio: number;
}

/**
 * The contrast of every visible element matching each selector: its computed `color` against its
 * background, the backgrounds of it and its ancestors blended down to the first opaque one (WCAG
 * 2.x relative luminance and contrast ratio).
 */
export async function contrastOf(page: Page, selectors: readonly string[]): Promise<ContrastPair[]> {
  return page.evaluate<ContrastPair[]>(`(() => {
    const parse = (value) => {
      const m = /rgba?\\(([\\d.]+)[ ,]+([\\d.]+)[ ,]+([\\d.]+)(?:[ ,/]+([\\d.]+%?))?\\)/.exec(value);
      if (!m) return null;
      const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
      return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: alpha };
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const backgroundOf = (node) => {
      const layers = [];
      for (let at = node; at; at = at.parentElement) {
        const color = parse(getComputedStyle(at).backgroundColor);
        if (color && color.a > 0) layers.push(color);
        if (color && color.a >= 1) break;
      }
      let base = { r: 255, g: 255, b: 255, a: 1 };
      if (layers.length > 0 && layers[layers.length - 1].a >= 1) base = layers.pop();
      while (layers.length > 0) base = over(layers.pop(), base);
      return base;
    };
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    const show = (c) => "rgb(" + [c.r, c.g, c.b].map((v) => Math.round(v)).join(", ") + ")";
    const pairs = [];
    for (const selector of ${JSON.stringify(selectors)}) {
      for (const node of document.querySelectorAll(selector)) {
        const box = node.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || getComputedStyle(node).visibility === "hidden") continue;
        const background = backgroundOf(node);
        const text = over(parse(getComputedStyle(node).color), background);
        const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
        const label = (node.getAttribute("aria-label") || node.textContent || "").trim().slice(0, 40);
        pairs.push({ what: selector + " " + JSON.stringify(label), text: show(text), background: show(background), ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100 });
      }
    }
    return pairs;
  })()`);
}
