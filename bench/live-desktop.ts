// The desktop rows of `npm run bench:live`: a still screen and an animated terminal per asked
// fps (frames delivered, the desktop's processes, spawned helpers and the server's own CPU), and
// key → first frame showing it in the terminal.
import type { Build } from "./live";
import {
  click,
  closeView,
  cpuOver,
  desktopProcesses,
  keyLatencies,
  latencySummary,
  openView,
  pressKey,
  serverAlone,
} from "./live-measure";
import { timedClient } from "./timing";

const f0 = (n: number) => n.toFixed(0);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watches a new desktop session of `build` and appends its rows; the session ends after. */
export async function desktopLiveRows(
  build: Build,
  { seconds, keys, fps: fpsList }: { seconds: number; keys: number; fps: number[] },
  rows: [string, string, string][],
) {
  const req = timedClient(build.server.url, build.key);
  const pid = build.server.process.pid!;
  const id = (await req("POST", "/computers", { kind: "desktop", auto_kill: false })).body.id as string;
  const watchDesktop = async (what: string, fps: number) => {
    const view = await openView(build.server.url, build.key, id, fps);
    await settle(1000);
    const before = view.frames.length;
    const m = await cpuOver(seconds, { desktop: desktopProcesses, server: serverAlone(pid) }, pid);
    await closeView(view);
    const delivered = (view.frames.length - before) / m.seconds;
    rows.push([
      `${build.name}: desktop, ${what}, fps=${fps}`,
      `${delivered.toFixed(1)} fps; desktop processes ${f0(m.cpu.desktop)} %, spawned helpers ${f0(m.helpers)} %, ` +
        `server ${f0(m.cpu.server)} %`,
      "",
    ]);
  };
  try {
    // Still screen: identical frames are sent once a second only.
    for (const fps of fpsList) await watchDesktop("still screen", fps);
    for (const fps of [15, 30]) {
      // A letter typed into the terminal (clicked first, for focus); the first frame that differs from the one before
      // shows it.
      const view = await openView(build.server.url, build.key, id, fps);
      click(view, 400, 300);
      const latencies = await keyLatencies(
        view,
        keys,
        () => pressKey(view, "x"),
        () => {
          const before = view.frames[view.frames.length - 1]?.data;
          return (f) => !before || !f.data.equals(before);
        },
      );
      await closeView(view);
      rows.push([
        `${build.name}: desktop key → first frame showing it, fps=${fps}`,
        latencySummary(latencies, keys),
        "",
      ]);
    }
    // Animated: a terminal printing the time every 20 ms (bash builtins only, no spawns).
    await req("POST", `/computers/${id}/exec/sync`, {
      command:
        "setsid xterm -geometry 30x8-0-0 -e bash -c 'exec 3<> <(:); while :; do echo $EPOCHREALTIME; read -t 0.02 -u " +
        "3; done' >/dev/null 2>&1 &",
    });
    await settle(2000);
    for (const fps of fpsList) await watchDesktop("animated terminal", fps);
  } finally {
    await req("DELETE", `/computers/${id}`);
  }
}
