// bench:live's recording rows (docs/replays.md "Cost"): what recording a replay costs
// against watching the live view, both at 10 fps on the moving box in the same run
// (Chromium, the server process alone and, when recording, its ffmpeg), and what
// recording a still page costs against not recording it. Figures, not assertions.
import type { Build } from "./live";
import { chromiumOf, closeView, cpuOver, openView, serverAlone, type Part } from "./live-measure";
import { timedClient } from "./timing";

const FPS = 10;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (n: number) => n.toFixed(0);
/** The replay encoders the server started (its ffmpeg children). */
const ffmpegOf = (pid: number): Part => ({ pick: (p) => p.ppid === pid && p.comm === "ffmpeg" });

export async function recordingRows(build: Build, siteUrl: string, seconds: number, rows: [string, string, string][]) {
  const req = timedClient(build.server.url, build.key);
  const pid = build.server.process.pid!;
  const parts = { chromium: chromiumOf(pid), server: serverAlone(pid), ffmpeg: ffmpegOf(pid) };
  const total = (cpu: Record<string, number>) => (cpu.chromium ?? 0) + (cpu.server ?? 0) + (cpu.ffmpeg ?? 0);
  const id = (await req("POST", "/computers", { kind: "browser", auto_kill: false })).body.id as string;
  /** CPU while one replay records at FPS, then the replay stopped and finished. */
  const recording = async (): Promise<Record<string, number>> => {
    const started = await req("POST", `/computers/${id}/replays`, { framerate: FPS });
    await settle(1000);
    const m = await cpuOver(seconds, parts, pid);
    await req("POST", `/computers/${id}/replays/${started.body.replay_id}/stop`);
    for (let i = 0; i < 100; i++) {
      const list = await req("GET", `/computers/${id}/replays`);
      const row = (list.body.data as { replay_id: string; status: string; size_bytes: number }[]).find(
        (r) => r.replay_id === started.body.replay_id,
      );
      if (row && row.status !== "recording" && row.status !== "processing") return { ...m.cpu, bytes: row.size_bytes };
      await settle(200);
    }
    return { ...m.cpu, bytes: 0 };
  };
  try {
    await req("POST", `/computers/${id}/navigate`, { url: `${siteUrl}/animated` });
    await settle(1000);
    const view = await openView(build.server.url, build.key, id, FPS);
    await settle(1000);
    const watched = (await cpuOver(seconds, parts, pid)).cpu;
    await closeView(view);
    await settle(1000);
    const recorded = await recording();
    const ratio = total(recorded) / Math.max(total(watched), 1);
    rows.push([
      `${build.name}: recording vs live view, moving box, fps=${FPS}`,
      `${ratio.toFixed(2)}× (recording: Chromium ${f0(recorded.chromium ?? 0)} % + ` +
        `server ${f0(recorded.server ?? 0)} % + ffmpeg ${f0(recorded.ffmpeg ?? 0)} %; live view: ` +
        `Chromium ${f0(watched.chromium ?? 0)} % + server ${f0(watched.server ?? 0)} ` +
        `%; ${Math.round((recorded.bytes ?? 0) / 1024 / seconds)} KiB/s of MP4)`,
      "≤ 1.2×",
    ]);
    await req("POST", `/computers/${id}/navigate`, { url: `${siteUrl}/still` });
    await settle(1000);
    const idle = (await cpuOver(seconds, parts, pid)).cpu;
    const still = await recording();
    rows.push([
      `${build.name}: recording a still page, fps=${FPS}`,
      `${f0(total(still))} % of a core (Chromium ${f0(still.chromium ?? 0)} % + server ${f0(still.server ?? 0)} ` +
        `% + ffmpeg ${f0(still.ffmpeg ?? 0)} %) against ${f0(total(idle))} % not ` +
        `recording; ${Math.round((still.bytes ?? 0) / 1024 / seconds)} KiB/s of MP4`,
      "",
    ]);
  } finally {
    await req("DELETE", `/computers/${id}`);
  }
}
