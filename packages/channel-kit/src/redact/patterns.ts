/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/**
 * Secret shapes that are recognisable without knowing the secret: a leak of one of these is
 * caught even when the redactor was not told about it (a token pasted into a URL, a header
 * copied into an error).
 */
export const SECRET_PATTERNS: readonly { pattern: RegExp; replace: string }[] = [
  // Telegram bot tokens, also inside `/bot<token>/getMe`.
  { pattern: /(?<![0-9])\d{6,12}:[A-Za-z0-9_-]{30,}/g, replace: REDACTED },
  // Slack bot, user and app tokens.
  { pattern: /\bxox[abposre]-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  { pattern: /\bxapp-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  // Authorization header values copied into text.
  { pattern: /\b(Bearer|Basic|Bot)\s+[A-Za-z0-9._~+/=-]{8,}/g, replace: `$1 ${REDACTED}` },
  // Credentials in a URL: scheme://user:password@host (a password already shown as *** is left as it is).
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:(?!\*\*\*@)[^/\s@]+@/gi, replace: `$1${REDACTED}@` },
  // Query parameters that carry secrets.
  {
    pattern:
      /([?&](?:password|passwd|pass|token|access_token|secret|client_secret|api_key|apikey|key|sig|signature|auth)=)[^&\s#"'<>]+/gi,
    replace: `$1${REDACTED}`,
  },
];
