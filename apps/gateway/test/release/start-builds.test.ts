import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/*
 * The README's first command ends in `pnpm start`: on a fresh clone it builds what the gateway and
 * the webchat run (core, channel-kit, the gateway), not every channel and testkit (the gateway's
 * dev dependencies, there for its tests). Checked on turbo's own plan for the start script's build.
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const run = promisify(execFile);

describe("pnpm start builds only what it runs", () => {
  it("the start script's build plans core, channel-kit and the gateway, nothing else", async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const build = /^turbo (run build [^&]+?)\s*&&/.exec(scripts.start ?? "")?.[1];
    expect(build, scripts.start).toBeDefined();
    const args = (build as string).split(/\s+/).filter((arg) => !arg.startsWith("--output-logs"));
    const { stdout } = await run(join(ROOT, "node_modules", ".bin", "turbo"), [...args, "--dry=json"], {
      cwd: ROOT,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    });
    const tasks = (JSON.parse(stdout) as { tasks: { taskId: string }[] }).tasks.map((task) => task.taskId).sort();
    expect(tasks).toEqual(["@chorus/channel-kit#build", "@chorus/core#build", "@chorus/gateway#build"]);
  });
});
