import type { Command } from "commander";
import { checkConfig } from "../config/index.js";
import { cliContext } from "./context.js";

/** Prints findings; returns whether any is an error. */
export function printFindings(findings: ReturnType<typeof checkConfig>): boolean {
  for (const finding of findings) {
    process.stdout.write(
      `${finding.level === "error" ? "✗" : "!"} ${finding.path ? `${finding.path}: ` : ""}${finding.message}\n    fix: ${finding.fix}\n`,
    );
  }
  return findings.some((f) => f.level === "error");
}

/** `chorus config check`: validates the config file and reports what would fail at start. */
export function registerConfigCommands(program: Command): void {
  const config = program.command("config").description("inspect the configuration");
  config
    .command("check")
    .description("validate chorus.json (JSON5) and report problems with their fixes")
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .action(async (options: { config?: string }) => {
      const ctx = await cliContext(options);
      const failed = printFindings(checkConfig(ctx.loaded, ctx.env));
      process.stdout.write(
        ctx.loaded.exists
          ? `${ctx.loaded.file}: ${failed ? "has errors" : "valid"}\n`
          : `${ctx.loaded.file} does not exist; the defaults apply.\n`,
      );
      if (failed) process.exitCode = 1;
    });
}
