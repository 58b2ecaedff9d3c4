import type { ContactCard } from "@chorus/core";

/** A contact someone shared: `ContactMessage` (`displayName`, `vcard`), as WAProto has it. */
export interface SharedContact {
  readonly displayName?: string | null;
  readonly vcard?: string | null;
}

/**
 * A shared contact as a card: its name (the display name, else the vCard's `FN`) and phone
 * numbers (each `TEL`, written as the phone formats it, else its `waid=` digits with a `+`).
 * WhatsApp phones write vCard 3.0 with grouped lines: `item1.TEL;waid=4420…:+44 20 …`.
 * Undefined when it names no one.
 */
export function contactCardOf(contact: SharedContact): ContactCard | undefined {
  const vcard = typeof contact.vcard === "string" ? contact.vcard : "";
  const lines = unfold(vcard).map(parseLine);
  const formatted = lines.find((line) => line?.name === "FN")?.value.trim();
  const name = nonEmpty(contact.displayName) ?? nonEmpty(formatted);
  const phones = lines
    .filter((line) => line?.name === "TEL")
    .map((line) => nonEmpty(line?.value) ?? (line?.waid ? `+${line.waid}` : undefined))
    .filter((phone): phone is string => phone !== undefined);
  const shown = name ?? phones[0];
  if (shown === undefined) return undefined;
  return { name: shown, ...(phones.length > 0 ? { phones } : {}), ...(vcard.trim() !== "" ? { vcard } : {}) };
}

/** The vCard's logical lines: a line starting with a space or tab continues the one before (RFC 6350 §3.2). */
function unfold(vcard: string): string[] {
  return vcard.replace(/\r?\n[ \t]/g, "").split(/\r?\n/);
}

/** `item1.TEL;type=CELL;waid=4420…:+44 20 …` → its property name, value and `waid`. */
function parseLine(line: string): { name: string; value: string; waid?: string } | undefined {
  const colon = line.indexOf(":");
  if (colon <= 0) return undefined;
  const [property = "", ...params] = line.slice(0, colon).split(";");
  const name = (property.split(".").at(-1) ?? "").toUpperCase();
  const waid = params
    .map((param) => /^waid=(\d+)$/i.exec(param.trim())?.[1])
    .find((digits): digits is string => digits !== undefined);
  const value = line
    .slice(colon + 1)
    .replace(/\\([,;\\])/g, "$1")
    .replace(/\\n/gi, "\n");
  return { name, value, ...(waid ? { waid } : {}) };
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
