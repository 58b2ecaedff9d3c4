import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the PostgreSQL server this test run started (its `postgres` database). */
    postgresUrl: string;
  }
}

/** A fresh database on the test run's PostgreSQL server; its URL (password included). */
export async function freshPostgresDatabase(prefix = "t"): Promise<string> {
  const base = inject("postgresUrl");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return base.replace(/\/postgres$/, `/${name}`);
}
