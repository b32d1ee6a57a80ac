// Tries the desktop driver without the server: `npx tsx scripts/desktop-try.ts [--keep]`.
// Starts a desktop, types into its terminal, reads the file back with exec, saves a
// screenshot to DATA_DIR/desktop-try.png, snapshots, restores into a second desktop,
// and prints timings. With --keep it leaves the first desktop running until Enter.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { asDesktop, desktopDriver } from "../lib/computers/desktop/desktop-driver";
import { dataDir } from "../lib/env";

const events = { onExit: (detail: string) => console.log(`desktop exited: ${detail}`) };
const viewport = { width: 1280, height: 720, scale: 1 };
const t = () => performance.now();

await desktopDriver.warm();
desktopDriver.validate({ viewport, stealth: false });
let t0 = t();
const handle = await desktopDriver.start({ id: `comp_try${Date.now().toString(16)}`, viewport, stealth: false }, events);
console.log(`ready in ${(t() - t0).toFixed(0)} ms`);
const desktop = asDesktop(handle)!;
t0 = t();
await handle.act({ type: "type", text: "echo hello-from-xdotool > ~/typed.txt\n" });
console.log(`type ${(t() - t0).toFixed(0)} ms`);
await new Promise((r) => setTimeout(r, 300));
t0 = t();
const shot = await handle.screenshot({ format: "png" });
console.log(`screenshot ${(t() - t0).toFixed(0)} ms, ${shot.data.length} bytes`);
writeFileSync(path.join(dataDir(), "desktop-try.png"), shot.data);
console.log(await desktop.exec({ command: "cat ~/typed.txt; id; hostname; ls /", timeoutSeconds: 10, maxOutputBytes: 65536 }));
if (process.argv.includes("--keep")) {
  console.log("running; press Enter to stop");
  await new Promise((r) => process.stdin.once("data", r));
}
t0 = t();
const saved = await handle.stop({ saveState: true });
console.log(`stop+snapshot ${(t() - t0).toFixed(0)} ms, ${saved?.data.length} bytes`);
t0 = t();
const second = await desktopDriver.start({ id: `comp_try${Date.now().toString(16)}`, viewport, stealth: false, restore: saved! }, events);
console.log(`restored in ${(t() - t0).toFixed(0)} ms`);
console.log(await asDesktop(second)!.exec({ command: "cat ~/typed.txt", timeoutSeconds: 10, maxOutputBytes: 65536 }));
await second.stop({ saveState: false });
console.log(desktopDriver.health());
