import { execFile } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Logger, OutboundMedium } from "@chorus/core";

/** A medium made on disk (a transcoded voice note, a video's cover); `dispose` removes it. */
export interface MadeMedium {
  readonly filename: string;
  readonly mime: string;
  readonly size: number;
  open(): ReadableStream<Uint8Array>;
  dispose(): Promise<void>;
}

/** How long one ffmpeg run may take. */
const RUN_TIMEOUT_MS = 120_000;

/**
 * The ffmpeg command, when configured and found: it turns audio Feishu cannot play as a voice
 * message into Ogg/Opus (上传文件: "其他格式的音频文件，请转为 OPUS 格式后上传 … ffmpeg -i SourceFile.mp3
 * -acodec libopus -ac 1 -ar 16000 TargetFile.opus") and takes a video's first frame as its cover.
 * Each run works in a temporary directory of its own, removed when the medium is disposed of; a
 * command that is missing or fails gives undefined (the caller falls back), with one warning.
 */
export class Ffmpeg {
  #missing = false;

  constructor(
    private readonly command: string | false,
    private readonly logger: Logger,
  ) {}

  /** Whether ffmpeg may be run: configured, and not found missing already. */
  get usable(): boolean {
    return this.command !== false && !this.#missing;
  }

  /** `medium` as mono 16 kHz Opus in Ogg, named `<name>.opus`; undefined when ffmpeg is not there or fails. */
  toOpus(medium: OutboundMedium): Promise<MadeMedium | undefined> {
    const name = `${medium.filename.replace(/\.[^.]*$/u, "") || "voice"}.opus`;
    return this.#run(medium, name, "audio/ogg", (input, output) => [
      "-i",
      input,
      "-vn",
      "-acodec",
      "libopus",
      "-ac",
      "1",
      "-ar",
      "16000",
      "-f",
      "ogg",
      output,
    ]);
  }

  /** A video's first frame as a JPEG; undefined when ffmpeg is not there or fails. */
  cover(medium: OutboundMedium): Promise<MadeMedium | undefined> {
    return this.#run(medium, "cover.jpg", "image/jpeg", (input, output) => [
      "-i",
      input,
      "-frames:v",
      "1",
      "-f",
      "image2",
      "-c:v",
      "mjpeg",
      output,
    ]);
  }

  async #run(
    medium: OutboundMedium,
    filename: string,
    mime: string,
    argsOf: (input: string, output: string) => string[],
  ): Promise<MadeMedium | undefined> {
    if (!this.usable) return undefined;
    const dir = await mkdtemp(join(tmpdir(), "chorus-feishu-"));
    const dispose = () => rm(dir, { recursive: true, force: true });
    const input = join(dir, "input");
    const output = join(dir, filename);
    try {
      await pipeline(Readable.fromWeb(medium.open() as NodeReadableStream<Uint8Array>), createWriteStream(input));
      await this.#exec(["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...argsOf(input, output)]);
      const { size } = await stat(output);
      if (size === 0) throw new Error("ffmpeg made an empty file");
      return {
        filename,
        mime,
        size,
        open: () => Readable.toWeb(createReadStream(output)) as ReadableStream<Uint8Array>,
        dispose,
      };
    } catch (error) {
      await dispose();
      const missing = (error as { code?: unknown }).code === "ENOENT";
      if (missing) this.#missing = true;
      this.logger.warn(
        { medium: medium.filename, reason: missing ? "not found" : firstLine(error) },
        `feishu: ffmpeg (${String(this.command)}) could not make ${filename}`,
      );
      return undefined;
    }
  }

  #exec(args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      execFile(this.command as string, args, { timeout: RUN_TIMEOUT_MS, windowsHide: true }, (error, _out, stderr) => {
        if (!error) return resolve();
        reject(Object.assign(error, { message: String(stderr).trim() || error.message }));
      });
    });
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 200) ?? "";
}
