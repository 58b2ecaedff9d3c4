/** The URL with its password replaced by `***`, for logs, errors and statuses. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://***";
  }
}
