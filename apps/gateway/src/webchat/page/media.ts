import { el } from "./dom.js";
import { formatBytes, withToken } from "./format.js";
import { icon } from "./icons.js";
import type { ChatMessage, Medium, Place } from "./wire.js";

/**
 * A message's media as the page shows them: pictures inline (loaded lazily, at most a set size,
 * opening full size in a new tab), audio and voice notes with a player, videos with a player,
 * other files as a chip to download; a place as a pin line with an OpenStreetMap link. `loaded`
 * is called when a picture or video got its size (the list may need to stay at its bottom). A
 * medium the gateway no longer keeps (past its media retention) shows as a line saying so.
 */
export function mediaOf(message: ChatMessage, loaded: () => void): HTMLElement | null {
  const media = message.attachments ?? [];
  if (media.length === 0 && !message.location) return null;
  const box = el("div", "media");
  for (const medium of media) box.appendChild(mediumElement(medium, loaded));
  if (message.location) box.appendChild(placeElement(message.location));
  return box;
}

function mediumElement(medium: Medium, loaded: () => void): HTMLElement {
  const url = withToken(medium.url);
  const labelled = <T extends HTMLElement>(node: T): T => {
    node.setAttribute("data-testid", "medium");
    node.setAttribute("data-kind", medium.kind);
    node.setAttribute("data-filename", medium.filename);
    return node;
  };
  if ((medium.kind === "image" || medium.kind === "sticker") && inline(medium.mime)) {
    const link = labelled(el("a", `media-link media-${medium.kind}`));
    link.href = url;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    const image = el("img", "media-image");
    image.src = url;
    image.alt = medium.filename;
    image.loading = "lazy";
    image.decoding = "async";
    if (medium.width && medium.height) {
      image.width = medium.width;
      image.height = medium.height;
    }
    image.addEventListener("load", loaded, { once: true });
    image.addEventListener("error", () => void replaceIfGone(link, medium, url), { once: true });
    link.appendChild(image);
    return link;
  }
  if (medium.kind === "video" && inline(medium.mime)) {
    const video = labelled(el("video", "media-video"));
    video.src = url;
    video.controls = true;
    video.preload = "metadata";
    video.setAttribute("aria-label", medium.filename);
    video.addEventListener("loadedmetadata", loaded, { once: true });
    video.addEventListener("error", () => void replaceIfGone(video, medium, url), { once: true });
    return video;
  }
  if ((medium.kind === "audio" || medium.kind === "voice") && inline(medium.mime)) {
    const box = labelled(el("div", "media-audio"));
    const label = el("span", "media-label");
    label.append(
      icon(medium.kind === "voice" ? "voice" : "audio"),
      medium.kind === "voice" ? "Voice note" : medium.filename,
    );
    box.appendChild(label);
    const audio = el("audio");
    audio.src = url;
    audio.controls = true;
    audio.preload = "metadata";
    audio.setAttribute("aria-label", medium.kind === "voice" ? "Voice note" : medium.filename);
    audio.addEventListener("error", () => void replaceIfGone(box, medium, url), { once: true });
    box.appendChild(audio);
    return box;
  }
  const chip = labelled(el("a", "file-chip"));
  chip.href = url;
  chip.download = medium.filename;
  chip.setAttribute("aria-label", `Download ${medium.filename} (${formatBytes(medium.size)})`);
  chip.appendChild(icon("file"));
  chip.appendChild(el("span", "file-name", medium.filename));
  chip.appendChild(el("span", "file-size", formatBytes(medium.size)));
  chip.appendChild(el("span", "file-get", "Download"));
  // Asked first: a medium no longer kept would otherwise "download" as an error page.
  chip.addEventListener("click", (event) => {
    if (chip.dataset.checked === "yes") return;
    event.preventDefault();
    void replaceIfGone(chip, medium, url).then((gone) => {
      if (gone) return;
      chip.dataset.checked = "yes";
      chip.click();
    });
  });
  return chip;
}

/**
 * Asks the gateway for the medium's first byte; when it answers that it no longer keeps it (404),
 * `node` becomes a line saying so. Resolves with whether it did.
 */
async function replaceIfGone(node: HTMLElement, medium: Medium, url: string): Promise<boolean> {
  const answer = await fetch(url, { headers: { range: "bytes=0-0" } }).catch(() => undefined);
  await answer?.body?.cancel().catch(() => undefined);
  if (answer?.status !== 404) return false;
  const line = el("p", "media-gone");
  line.setAttribute("data-testid", "medium-gone");
  line.setAttribute("data-filename", medium.filename);
  line.append(icon("file"), el("span", "file-name", medium.filename), el("span", "file-size", "no longer kept"));
  node.replaceWith(line);
  return true;
}

/** A place as a pin line: its name and address, its coordinates, and a link to it on OpenStreetMap. */
function placeElement(place: Place): HTMLElement {
  const line = el("p", "location");
  line.setAttribute("data-testid", "location");
  const named = [place.name, place.address].filter(Boolean).join(", ");
  line.appendChild(icon("pin"));
  if (named) line.appendChild(el("span", "location-name", named));
  line.appendChild(el("span", "location-at", `${place.latitude}, ${place.longitude}`));
  const link = el("a", "location-map", "OpenStreetMap");
  const { latitude: lat, longitude: lon } = place;
  link.href = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  line.appendChild(link);
  return line;
}

/** Whether the page shows a medium of this type in place (never SVG: it is offered as a file). */
function inline(mime: string): boolean {
  return /^(image|audio|video)\//.test(mime) && !mime.includes("svg");
}
