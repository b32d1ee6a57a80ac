// The replay encoder with the real ffmpeg (docs/replays.md "How a replay is made"): frames
// are written by the wall clock (a recording that started 2 s ago has 2 s of video at once),
// the MP4 is H.264 at even dimensions, and a full disk (/dev/full) fails it with ffmpeg's
// words. And the Range header's forms for seeking.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EncodeFailed, ffmpegArgs, ReplayEncoder } from "@/lib/computers/replays/replay-encoder";
import { parseRange } from "@/lib/computers/replays/replay-files";
import { isSessionFilesPath } from "@/lib/cluster/forward-path";

const hasFfmpeg = existsSync("/usr/bin/ffmpeg");

function jpeg(width: number, height: number): Buffer {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cabin-jpeg-")), "frame.jpg");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", `testsrc2=size=${width}x${height}`, "-frames:v", "1", "-y", file],
  ]);
  return readFileSync(file);
}

describe.skipIf(!hasFfmpeg)("ReplayEncoder", () => {
  it("writes frames by the wall clock into an H.264 MP4 of even size", async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "cabin-replay-")), "r.mp4");
    const failures: string[] = [];
    const encoder = new ReplayEncoder({
      ffmpeg: "/usr/bin/ffmpeg",
      outputPath: out,
      fps: 10,
      startedAt: Date.now() - 2000,
      onFailure: (reason) => failures.push(reason),
    });
    encoder.frame(jpeg(321, 241), 321, 241);
    const video = await encoder.finish();
    expect(failures).toEqual([]);
    expect(video).toMatchObject({ width: 320, height: 240 });
    expect(video.frames).toBeGreaterThanOrEqual(21);
    const probed = JSON.parse(
      execFileSync("ffprobe", [
        ...["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,nb_frames"],
        ...["-of", "json", out],
      ]).toString(),
    ).streams[0];
    expect(probed).toMatchObject({ codec_name: "h264", width: 320, height: 240 });
    expect(Number(probed.nb_frames)).toBe(video.frames);
  });

  it("a full disk fails the replay with ffmpeg's reason", async () => {
    let failed: string | null = null;
    const encoder = new ReplayEncoder({
      ffmpeg: "/usr/bin/ffmpeg",
      outputPath: "/dev/full",
      fps: 10,
      startedAt: Date.now() - 3000,
      onFailure: (reason) => (failed = reason),
    });
    encoder.frame(jpeg(640, 360), 640, 360);
    const error = await encoder.finish().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EncodeFailed);
    expect((error as Error).message).toMatch(/ffmpeg stopped/);
    expect((error as Error).message).toMatch(/No space left on device/);
    if (failed) expect(failed).toBe((error as Error).message);
  });

  it("no frame at all is a failure that says so", async () => {
    const encoder = new ReplayEncoder({
      ffmpeg: "/usr/bin/ffmpeg",
      outputPath: path.join(os.tmpdir(), "never.mp4"),
      fps: 10,
      startedAt: Date.now(),
      onFailure: () => {},
    });
    await expect(encoder.finish()).rejects.toThrow(/no frame/);
  });
});

describe("replay ffmpeg arguments and ranges", () => {
  it("H.264 in yuv420p with faststart, the first frame's size", () => {
    const args = ffmpegArgs({ fps: 12, width: 1280, height: 720, outputPath: "/x.mp4" }).join(" ");
    expect(args).toContain("-f image2pipe -c:v mjpeg -framerate 12 -i pipe:0");
    expect(args).toContain("scale=1280:720");
    expect(args).toContain("-c:v libx264");
    expect(args).toContain("-pix_fmt yuv420p");
    expect(args).toContain("-movflags +faststart");
  });

  it("reads the Range forms players send", () => {
    expect(parseRange(null, 1000)).toBeNull();
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=990-2000", 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=5-1", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-9", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
  });

  it("an ended session's replays, like its files, are served by the node that holds them (forwarded)", () => {
    const id = "comp_0123456789abcdef01234567";
    expect(isSessionFilesPath(`/computers/${id}/replays`)).toBe(true);
    expect(isSessionFilesPath(`/computers/${id}/replays/rep_0123456789abcdef01234567?x=1`)).toBe(true);
    expect(isSessionFilesPath(`/api/sessions/${id}/replays`)).toBe(true);
    expect(isSessionFilesPath(`/computers/${id}/files/file_1`)).toBe(true);
    expect(isSessionFilesPath(`/computers/${id}/screenshot`)).toBe(false);
  });
});
