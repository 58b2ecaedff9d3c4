import type { Logger } from "@chorus/core";

/**
 * The field of a channel's warning that says what became of a platform delivery: the kit's
 * receiver logs `receipt: "unreadable"` (with `problem`) for a delivery it cannot read.
 */
export const RECEIPT_FIELD = "receipt";

/**
 * A channel account's logger that also tells `onUnreadable` of each delivery the channel reports
 * it could not read (a warning carrying `receipt: "unreadable"`); every line is logged as before.
 */
export function watchUnreadable(logger: Logger, onUnreadable: (problem: string) => void): Logger {
  const warn: Logger["warn"] = (fields: Record<string, unknown> | string, message?: string) => {
    if (typeof fields === "object" && fields !== null && fields[RECEIPT_FIELD] === "unreadable") {
      const problem = fields.problem;
      onUnreadable(typeof problem === "string" ? problem : (message ?? "unreadable delivery"));
    }
    return message === undefined ? logger.warn(fields as never) : logger.warn(fields as never, message);
  };
  return {
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn,
    error: logger.error.bind(logger),
    child: (bindings) => watchUnreadable(logger.child(bindings), onUnreadable),
  };
}
