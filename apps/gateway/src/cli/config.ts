import type { Command } from "commander";
import { validateInstallation } from "../checks/index.js";
import type { ConfigFinding } from "../config/index.js";
import { cliPaths } from "./context.js";

/** Prints findings; returns whether any is an error. */
export function printFindings(findings: readonly ConfigFinding[]): boolean {
  for (const finding of findings) {
    process.stdout.write(
      `${finding.level === "error" ? "✗" : "!"} ${finding.path ? `${finding.path}: ` : ""}${finding.message}\n    fix: ${finding.fix}\n`,
    );
  }
  return findings.some((f) => f.level === "error");
}

/** What happens without a config file in the home (nothing wrong: the defaults apply), and how to configure. */
export function noConfigNote(file: string): string {
  return `no config file at ${file}: the gateway starts the webchat with the offline demo agent (create the file, JSON5, to configure channels and agents)`;
}

/** `chorus config check`: validates the config file and reports what would fail at start. */
export function registerConfigCommands(program: Command): void {
  const config = program.command("config").description("inspect the configuration");
  config
    .command("check")
    .description(
      "validate chorus.json (JSON5) and every configured channel's keys; report all problems with their fixes",
    )
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .action(async (options: { config?: string }) => {
      const validation = await validateInstallation(cliPaths(options));
      const failed = printFindings(validation.findings);
      process.stdout.write(
        validation.exists
          ? `${validation.file}: ${failed ? "has errors" : "valid"}\n`
          : failed
            ? `${validation.file} does not exist.\n`
            : `${noConfigNote(validation.file)}\n`,
      );
      if (failed) process.exitCode = 1;
    });
}
