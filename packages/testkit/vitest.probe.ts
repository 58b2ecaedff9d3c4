/** Errors the contract suite's own tests provoke on purpose (a plugin that leaks a rejection). */
export function isContractProbe(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("contract-probe:");
}
