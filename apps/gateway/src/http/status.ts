import type { ErrorCode } from "@chorus/core";

/** The HTTP status an error code answers with on the gateway's API. */
export function httpStatusFor(code: ErrorCode): 400 | 401 | 404 | 409 | 413 | 422 | 429 | 502 | 503 {
  switch (code) {
    case "E_INVALID_INPUT":
    case "E_EMOJI_REQUIRED":
      return 400;
    case "E_UNSUPPORTED":
    case "E_UNSUPPORTED_EMOJI":
      return 422;
    case "E_MESSAGE_NOT_FOUND":
      return 404;
    case "E_DISABLED":
      return 409;
    case "E_TOO_LARGE":
      return 413;
    case "E_RATE_LIMITED":
      return 429;
    case "E_AUTH":
    case "E_PLATFORM":
      return 502;
  }
}
