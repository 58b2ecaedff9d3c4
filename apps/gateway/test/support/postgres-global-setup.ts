import type { TestProject } from "vitest/node";
import "../../src/testing/postgres-database.js";
import { startTestPostgres } from "../../src/testing/index.js";

/** One throwaway PostgreSQL server for the gateway's tests; each test file makes its own databases on it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
