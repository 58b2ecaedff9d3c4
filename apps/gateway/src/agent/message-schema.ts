import { modelMessageSchema } from "ai";
import { isRecursiveSchema } from "zod/v4/core";

/**
 * The AI SDK checks each prompt against a new `z.array(modelMessageSchema)`. Before a new schema's
 * first parse, zod walks its whole tree to learn whether it can recurse, and stops only at a schema
 * whose answer it already knows; asked once here, `modelMessageSchema` is such a schema, so that
 * walk (≈ 100 µs and 100 KB of garbage per model call) becomes a few steps.
 */
export function settleMessageSchema(): void {
  isRecursiveSchema(modelMessageSchema);
}
