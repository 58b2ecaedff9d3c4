import type { API } from "zca-js";
import type { CallFacts } from "./transport.js";

/** Runs one zca-js call on the logged-in API with the kit's retry rules (`idempotent`: repeating it cannot do its work twice). */
export type ZaloCaller = <T>(
  operation: string,
  call: (api: API) => Promise<T>,
  idempotent: boolean,
) => Promise<{ result: T; facts: CallFacts; api: API }>;
