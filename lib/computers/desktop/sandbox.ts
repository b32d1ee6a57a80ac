// One desktop's namespaces and root filesystem. As real root, in new mount, PID and
// UTS namespaces: an overlay (the read-only base image under a per-session upper
// layer), private /proc, /tmp, /run, /dev, /dev/shm, the host's resolver, then
// pivot_root and the host's tree detached — nothing of the host stays reachable.
// Last, a user namespace maps 0..65535 inside onto SUBID_BASE.. outside and tini
// becomes PID 1 in it: from there on nothing in the desktop is privileged on the host.
// The network namespace is the desktop's own, made here as real root too (so root
// inside cannot change its firewall): `startDesktopNetwork` puts the egress policy's
// firewall in it and gives it outbound NAT; the resolver is slirp4netns's forwarder.
// The X server listens only on a socket in the private /tmp.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, chown, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { hostEnv } from "@/lib/computers/desktop/enter";
import { DESKTOP_HOSTNAME, DESKTOP_UID, SUBID_BASE, SUBID_COUNT } from "@/lib/computers/desktop/image";
import { RESOLV_CONF, startDesktopNetwork, type DesktopNetwork } from "@/lib/computers/desktop/network";

// Stage 1, in the new namespaces as real root. It runs only the HOST's binaries: the
// merged root is partly the user's (the upper layer), so nothing of it may run with
// privileges. Mount points must be real directories (a snapshot cannot redirect a
// mount with a symlink). Then Perl (perl-base is essential on Debian hosts) makes the
// switch without executing anything from the new root: pivot_root, detach the host's
// tree, create and map the user namespace, enter it as root-inside, and only then
// exec tini from the image.
const STAGE1 =
  `
set -eu
B=$1; S=$2; U=${SUBID_BASE}; R=$S/root
mount -t overlay overlay -o "lowerdir=$B,upperdir=$S/upper,workdir=$S/work" "$R"
cd "$R"
for d in proc tmp run dev etc .oldroot; do
  if [ -L "$d" ] || [ ! -d "$d" ]; then echo "/$d is not a directory in this desktop's file system" >&2; exit 3; fi
done
mount -t proc -o nosuid,nodev,noexec proc proc
mount -t tmpfs -o "mode=1777,nosuid,nodev,size=2g,uid=$U,gid=$U" tmpfs tmp
mkdir -m 1777 tmp/.X11-unix && chown $U:$U tmp/.X11-unix
mount -t tmpfs -o "mode=755,nosuid,nodev,size=64m,uid=$U,gid=$U" tmpfs run
mkdir -p -m 700 run/user/${DESKTOP_UID} && cp "$S/Xauthority" run/user/${DESKTOP_UID}/Xauthority
chmod 600 run/user/${DESKTOP_UID}/Xauthority && chown -R $((U + ${DESKTOP_UID})):$((U + ${DESKTOP_UID})) ` +
  `run/user/${DESKTOP_UID}
mount -t tmpfs -o "mode=755,nosuid,size=1m,uid=$U,gid=$U" tmpfs dev
for d in null zero full random urandom tty; do touch dev/$d; mount --bind /dev/$d dev/$d; done
mkdir dev/pts dev/shm
mount -t devpts -o "newinstance,ptmxmode=0666,mode=620,gid=$((U + 5))" devpts dev/pts
ln -s pts/ptmx dev/ptmx; ln -s /proc/self/fd dev/fd
ln -s /proc/self/fd/0 dev/stdin; ln -s /proc/self/fd/1 dev/stdout; ln -s /proc/self/fd/2 dev/stderr
mount -t tmpfs -o "mode=1777,nosuid,nodev,size=1g,uid=$U,gid=$U" tmpfs dev/shm
if [ -f etc/resolv.conf ] && [ ! -L etc/resolv.conf ]; then
  mount --bind "$S/resolv.conf" etc/resolv.conf; mount -o remount,bind,ro etc/resolv.conf
fi
shift 2
exec perl -e "$PIVOT" -- "$@"
`;

const PIVOT = String.raw`
use strict; use POSIX ();
@INC = (); # nothing may be loaded from the new root at run time
my ($sub, $count, $host, $pivot, $umount2, $unshare, $setns, $prctl) = @ARGV;
my ($dot, $put, $old) = (".", ".oldroot", "/.oldroot"); # syscall() wants writable strings
syscall($pivot, $dot, $put) == 0 or die "pivot_root: $!\n";
chdir "/" or die "chdir: $!\n";
syscall($umount2, $old, 2) == 0 or die "umount old root: $!\n";
open(my $h, ">", "/proc/sys/kernel/hostname") or die "hostname: $!\n"; print $h $host; close $h;
pipe(my $r, my $w) or die "pipe: $!\n";
my $pid = fork() // die "fork: $!\n";
if ($pid == 0) { close $r; syscall($unshare, 0x10000000) == 0 or POSIX::_exit(1); close $w; sleep 3600; POSIX::_exit(0); }
close $w; my $ignored = <$r>;
for my $map ("uid_map", "gid_map") {
  open(my $m, ">", "/proc/$pid/$map") or die "$map: $!\n"; print $m "0 $sub $count\n"; close $m or die "$map: $!\n";
}
open(my $ns, "<", "/proc/$pid/ns/user") or die "userns: $!\n";
syscall($setns, fileno($ns), 0x10000000) == 0 or die "setns: $!\n";
kill 9, $pid; waitpid $pid, 0; close $ns;
$) = "0 0"; POSIX::setgid(0) or die "setgid: $!\n"; POSIX::setuid(0) or die "setuid: $!\n";
# The credential change just cleared the parent-death signal unshare's --kill-child set;
# set again (PR_SET_PDEATHSIG, SIGKILL), the desktop's init, and with it every process
# of its PID namespace, dies with unshare, which dies with the server (launchSandbox).
syscall($prctl, 1, 9) == 0 or die "prctl: $!\n";
# The desktop's init keeps only PATH and the leftover marker: the set-up's PWD, OLDPWD
# and the rest name host paths.
%ENV = (PATH => $ENV{PATH}, CABIN_DESKTOP => $ENV{CABIN_DESKTOP}); $| = 1; print "cabin-sandbox-ready\n";
exec "/usr/bin/tini", "--", "/bin/sleep", "infinity"; die "exec tini: $!\n";
`;

// pivot_root, umount2, unshare, setns, prctl
const SYSCALLS: Record<string, number[]> = { x64: [155, 166, 272, 308, 157], arm64: [41, 39, 97, 268, 167] };

export function supportedArch(): boolean {
  return Object.hasOwn(SYSCALLS, process.arch);
}

/** Written into every process Cabin starts for a desktop, so a later process can find leftovers (`desktopMarker`). */
export { MARKER_VAR } from "@/lib/computers/desktop/marker";

export function sessionDirs(sessionsRoot: string, id: string) {
  const dir = path.join(sessionsRoot, id);
  return { dir, upper: path.join(dir, "upper"), work: path.join(dir, "work"), root: path.join(dir, "root") };
}

/** Creates the session's directories; the upper layer's root is owned by root-inside. */
export async function prepareDirs(sessionsRoot: string, id: string, xauthority: Buffer) {
  const dirs = sessionDirs(sessionsRoot, id);
  await mkdir(/* turbopackIgnore: true */ sessionsRoot, { recursive: true, mode: 0o700 });
  await rm(/* turbopackIgnore: true */ dirs.dir, { recursive: true, force: true });
  await mkdir(/* turbopackIgnore: true */ dirs.dir, { mode: 0o700 });
  await Promise.all([
    mkdir(/* turbopackIgnore: true */ dirs.upper, { mode: 0o755 }),
    mkdir(/* turbopackIgnore: true */ dirs.work, { mode: 0o700 }),
    mkdir(/* turbopackIgnore: true */ dirs.root, { mode: 0o755 }),
  ]);
  await chown(/* turbopackIgnore: true */ dirs.upper, SUBID_BASE, SUBID_BASE);
  await chmod(/* turbopackIgnore: true */ dirs.upper, 0o755);
  await writeFile(/* turbopackIgnore: true */ path.join(dirs.dir, "Xauthority"), xauthority, { mode: 0o600 });
  await writeFile(/* turbopackIgnore: true */ path.join(dirs.dir, "resolv.conf"), RESOLV_CONF, { mode: 0o644 });
  return dirs;
}

export interface Sandbox {
  /** Host pid of the namespace's init (tini); killing it ends every process of the desktop. */
  pid1: number;
  launcher: ChildProcess;
  /** Resolves when the launcher (and so the namespace) has exited. */
  exited: Promise<void>;
  /** The namespace's outbound NAT (slirp4netns), one more host process per desktop. */
  network: DesktopNetwork;
}

function childPid(parent: number): number | null {
  try {
    const first = readFileSync(/* turbopackIgnore: true */ `/proc/${parent}/task/${parent}/children`, "utf8")
      .trim()
      .split(/\s+/)[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/** Launches the namespaces; resolves once tini runs as PID 1 in the user namespace and the network is up. */
export function launchSandbox(input: {
  rootfs: string;
  dir: string;
  marker: string;
  timeoutMs: number;
}): Promise<Sandbox> {
  return new Promise((resolve, reject) => {
    // A desktop never outlives the server, even a kill -9 of it. setpriv's
    // pdeathsig kills unshare when the server dies; unshare's --kill-child (renewed by PIVOT
    // after its credential change) kills the namespace's init, and the kernel then every
    // process in the namespace. warm() at the next start still reaps mounts and directories.
    const launcher = spawn(
      "setpriv",
      [
        "--pdeathsig",
        "KILL",
        "--",
        "unshare",
        "--mount",
        "--pid",
        "--uts",
        "--net",
        "--fork",
        "--kill-child",
        "--propagation",
        "private",
        "--",
        "/bin/sh",
        "-c",
        STAGE1,
        "cabin-desktop",
        input.rootfs,
        input.dir,
        String(SUBID_BASE),
        String(SUBID_COUNT),
        DESKTOP_HOSTNAME,
        ...SYSCALLS[process.arch].map(String),
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: hostEnv(input.marker, { PIVOT }) },
    );
    const exited = new Promise<void>((r) => launcher.once("exit", () => r()));
    let output = "";
    let settled = false;
    let networking = false;
    const deadline = Date.now() + input.timeoutMs;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (launcher.exitCode === null) launcher.kill("SIGKILL");
      reject(new Error(`${message}${output.trim() ? `: ${output.trim().slice(-500)}` : ""}`));
    };
    const timer = setTimeout(
      () => fail(`the desktop namespace did not start within ${input.timeoutMs} ms`),
      input.timeoutMs,
    );
    launcher.stderr!.on("data", (d) => (output += d));
    launcher.stdout!.on("data", (d) => {
      output += d;
      if (settled || !output.includes("cabin-sandbox-ready")) return;
      const pid1 = launcher.pid ? childPid(launcher.pid) : null;
      if (!pid1) return fail("the desktop namespace has no init process");
      if (networking) return;
      networking = true;
      startDesktopNetwork(pid1, input.dir, Math.max(1000, deadline - Date.now())).then(
        (network) => {
          if (settled) return void network.slirp.kill("SIGKILL");
          settled = true;
          clearTimeout(timer);
          resolve({ pid1, launcher, exited, network });
        },
        (e: Error) => fail(`the desktop's network did not start (${e.message})`),
      );
    });
    launcher.on("error", (e) => fail(`could not launch the desktop namespace (${e.message})`));
    launcher.on("exit", (code) => fail(`the desktop namespace exited during set-up (exit ${code})`));
  });
}

/** Kills the namespace's init (and so everything in it) and waits for the launcher to reap it and exit. */
export async function killSandbox(sandbox: Sandbox, timeoutMs = 5000): Promise<void> {
  const kill = (pid: number | undefined) => {
    try {
      if (pid) process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  kill(sandbox.pid1);
  kill(sandbox.network.slirp.pid);
  const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), timeoutMs).unref());
  if ((await Promise.race([sandbox.exited, timeout])) === "timeout") kill(sandbox.launcher.pid);
  await Promise.all([waitGone(sandbox.pid1, timeoutMs), Promise.race([sandbox.network.exited, timeout])]);
}

/** Waits until a pid is no longer a live process (zombies count as gone). */
export async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const stat = readFileSync(/* turbopackIgnore: true */ `/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}
