import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { classifyStateError, isStateUnavailable, StateUnavailableError } from "./state-errors.js";

const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe("classifyStateError", () => {
  it("types a dropped or refused connection, a server going away, a busy or full file as the state being unavailable", () => {
    const transient = [
      withCode("connect ECONNREFUSED 127.0.0.1:5432", { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      withCode("terminating connection due to administrator command", { code: "57P01" }),
      withCode("the database system is starting up", { code: "57P03" }),
      withCode("connection failure", { code: "08006" }),
      withCode("database is locked", { code: "ERR_SQLITE_ERROR", errcode: 5 }),
      withCode("database or disk is full", { code: "ERR_SQLITE_ERROR", errcode: 13 }),
      withCode("disk I/O error", { code: "ERR_SQLITE_ERROR", errcode: 10 | (3 << 8) }),
      withCode("could not sync the state database's WAL (x-wal): ENOSPC", { code: "ENOSPC" }),
    ];
    for (const error of transient) {
      const classified = classifyStateError(error, "postgres://db:5432/chorus");
      expect(isStateUnavailable(classified), error.message).toBe(true);
      expect(classified).toBeInstanceOf(ChorusError);
      expect((classified as StateUnavailableError).retryable).toBe(true);
      expect((classified as Error).message).toContain("the state database postgres://db:5432/chorus is unavailable: ");
      expect((classified as Error).cause).toBe(error);
    }
  });

  it("leaves a statement's own mistake alone (a constraint, a syntax error, a unique key)", () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint "inbox_pkey"', { code: "23505" }),
      withCode('syntax error at or near "SELEC"', { code: "42601" }),
      withCode("UNIQUE constraint failed: inbox.event_id", { code: "ERR_SQLITE_ERROR", errcode: 2067 }),
    ]) {
      expect(classifyStateError(error, "chorus.db")).toBe(error);
    }
    const typed = new StateUnavailableError("already typed");
    expect(classifyStateError(typed, "chorus.db")).toBe(typed);
  });
});
