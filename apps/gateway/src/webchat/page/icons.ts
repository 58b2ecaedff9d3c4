/**
 * Small line icons drawn as inline SVG (the page loads nothing else, and emoji fonts are not
 * everywhere): each in the text's colour, decorative (hidden from screen readers; what it stands
 * for is in a label or text beside it).
 */
const SHAPES = {
  clip: ["M20 11.5 12.3 19.2a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4L15 6.9"],
  file: ["M6 2.5h8l5 5v14H6z", "M14 2.5v5h5"],
  audio: ["M9 18V5.5l10-2V16", "M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3z", "M19 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z"],
  video: ["M3.5 6.5h12v11h-12z", "M15.5 10.5l5-3v9l-5-3z"],
  voice: ["M9 5a3 3 0 0 1 6 0v6a3 3 0 0 1-6 0z", "M5.5 11a6.5 6.5 0 0 0 13 0", "M12 17.5V21"],
  pin: ["M12 21.5s6.5-6 6.5-11.5a6.5 6.5 0 0 0-13 0c0 5.5 6.5 11.5 6.5 11.5z", "M14 10a2 2 0 1 1-2-2 2 2 0 0 1 2 2z"],
} as const;

/** The icons there are. */
export type IconName = keyof typeof SHAPES;

const SVG = "http://www.w3.org/2000/svg";

/** A decorative icon, 1em square by default. */
export function icon(name: IconName, className = "icon"): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of SHAPES[name]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  return svg;
}
