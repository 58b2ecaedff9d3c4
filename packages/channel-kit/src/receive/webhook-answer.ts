import type { Receipt } from "./receiver.js";

const STATUS: Record<Receipt, number> = {
  committed: 200,
  ignored: 200,
  kept: 202,
  unreadable: 400,
  "not-committed": 503,
};

/**
 * The HTTP answer to a webhook delivery with this receipt: 200 committed or nothing for the gateway,
 * 202 kept to be emitted again, 400 a body that cannot be read (it would not help to send it again),
 * 503 not committed (a platform that retries sends it again).
 */
export function webhookAnswer(receipt: Receipt): Response {
  const status = STATUS[receipt];
  return Response.json(status < 300 ? { ok: true } : { ok: false, error: receipt }, { status });
}
