import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/**
 * The ffmpeg to transcode with: `configured` (a path, or a name looked up on PATH), else
 * `ffmpeg` on PATH; undefined when there is none that can be run.
 */
export async function findFfmpeg(configured?: string): Promise<string | undefined> {
  const name = configured ?? "ffmpeg";
  if (name.includes("/")) return (await runnable(name)) ? name : undefined;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (await runnable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * `input` as a voice note WhatsApp plays: Ogg/Opus, mono, 48 kHz, 32 kbit/s for speech
 * (`-application voip`), without the source's metadata. Streams both ways; the output ends only
 * once ffmpeg exited cleanly, and errors (with ffmpeg's own words) when it did not, so a failed
 * transcoding never goes out cut short. Stopping to read it stops ffmpeg.
 */
export function transcodeToOpus(ffmpeg: string, input: ReadableStream<Uint8Array>): Readable {
  const child = spawn(
    ffmpeg,
    [
      ...["-hide_banner", "-loglevel", "error", "-nostdin", "-i", "pipe:0", "-vn", "-map_metadata", "-1"],
      ...["-c:a", "libopus", "-b:a", "32k", "-ac", "1", "-ar", "48000", "-application", "voip", "-f", "ogg", "pipe:1"],
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const output = new PassThrough();
  let said = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (said.length < 2000) said += chunk.toString("utf8");
  });
  const source = Readable.fromWeb(input as NodeReadableStream<Uint8Array>);
  source.on("error", (error) => output.destroy(error));
  // ffmpeg may stop reading early (a broken input): its closed stdin is no error of ours.
  child.stdin.on("error", () => undefined);
  source.pipe(child.stdin);
  child.stdout.pipe(output, { end: false });
  child.on("error", (error) => output.destroy(error));
  child.on("close", (code, signal) => {
    if (code === 0) output.end();
    else {
      const why = said.trim().split("\n").at(-1) || (signal ? `stopped by ${signal}` : `exit code ${code}`);
      output.destroy(new Error(`ffmpeg could not make an Ogg/Opus voice note: ${why}`));
    }
  });
  output.on("close", () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    source.destroy();
  });
  return output;
}

async function runnable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
