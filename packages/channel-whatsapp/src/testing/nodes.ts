import { type BinaryNode, getBinaryNodeChild, getBinaryNodeChildren, S_WHATSAPP_NET } from "@whiskeysockets/baileys";

export { getBinaryNodeChild as child, getBinaryNodeChildren as children };

/** The element children of a node (empty for byte or string content). */
export function childNodes(node: BinaryNode | undefined): BinaryNode[] {
  return Array.isArray(node?.content) ? node.content : [];
}

/** A node's content as bytes (strings are UTF-8), or undefined when it has none or has children. */
export function bytesOf(node: BinaryNode | undefined): Buffer | undefined {
  const content = node?.content;
  if (typeof content === "string") return Buffer.from(content, "utf8");
  if (content instanceof Uint8Array) return Buffer.from(content);
  return undefined;
}

/** A node's content as text. */
export function textOf(node: BinaryNode | undefined): string | undefined {
  return bytesOf(node)?.toString("utf8");
}

/** Seconds since the epoch, as WhatsApp writes `t` attributes. */
export function unixSeconds(ms: number = Date.now()): string {
  return Math.floor(ms / 1000).toString();
}

/** The `<iq type="result">` answering `request`. */
export function iqResult(request: BinaryNode, content?: BinaryNode[]): BinaryNode {
  return {
    tag: "iq",
    attrs: { from: request.attrs.to ?? S_WHATSAPP_NET, id: request.attrs.id ?? "", type: "result" },
    ...(content ? { content } : {}),
  };
}

/** The `<iq type="error"><error code text/></iq>` answering `request`. */
export function iqError(request: BinaryNode, code: number, text: string): BinaryNode {
  return {
    tag: "iq",
    attrs: { from: request.attrs.to ?? S_WHATSAPP_NET, id: request.attrs.id ?? "", type: "error" },
    content: [{ tag: "error", attrs: { code: String(code), text } }],
  };
}
