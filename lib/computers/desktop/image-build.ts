// Builds the desktop base image (`npm run desktop:image`, and the set-up of `npm start`/`npm test`):
// mmdebstrap from Debian's packages into a temporary directory, a few settings for
// the desktop user, then every file's owner shifted by SUBID_BASE (see `SUBID_BASE`),
// a manifest written last, and one rename into DESKTOP_IMAGES_DIR/<version>.
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { chmod, lchown, lstat, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "@/lib/env";
import {
  DESKTOP_HOME,
  DESKTOP_HOSTNAME,
  DESKTOP_UID,
  DESKTOP_USER,
  DPKG_EXCLUDES,
  DPKG_INCLUDES,
  findImage,
  imageBuildInProgress,
  IMAGE_PACKAGES,
  IMAGE_SUITE,
  imagesDir,
  imageVersion,
  PROGRESS_FILE,
  SUBID_BASE,
  type DesktopImage,
  type ImageManifest,
} from "@/lib/computers/desktop/image";

type Log = (line: string) => void;

function run(command: string, args: string[], log: Log, started: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split("\n")) {
        if (line.trim()) log(`  [${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line.trim()}`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${signal ?? `exit ${code}`}):\n${tail}`)),
    );
  });
}

const hasCommand = (name: string) =>
  ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin"].some((dir) =>
    existsSync(/* turbopackIgnore: true */ path.join(dir, name)),
  );

/** The host needs mmdebstrap to build and zstd to snapshot; install them from Debian when missing. */
async function ensureHostTools(log: Log, started: number) {
  const missing = [
    ["mmdebstrap", "mmdebstrap"],
    ["zstd", "zstd"],
  ]
    .filter(([bin]) => !hasCommand(bin))
    .map(([, pkg]) => pkg);
  if (!missing.length) return;
  if (!hasCommand("apt-get")) throw new Error(`Install ${missing.join(", ")} first (no apt-get on this host)`);
  log(`installing ${missing.join(", ")} on the host with apt-get`);
  await run("apt-get", ["update", "-q"], log, started);
  await run("apt-get", ["install", "-y", "-q", ...missing], log, started);
}

/** Adds SUBID_BASE to every owner; chown clears set-id bits, so they are put back. Returns the bytes seen. */
async function shiftOwnership(dir: string): Promise<number> {
  let bytes = 0;
  const visit = async (p: string) => {
    const st = await lstat(/* turbopackIgnore: true */ p);
    bytes += st.size;
    if (st.uid < SUBID_BASE || st.gid < SUBID_BASE) {
      await lchown(
        /* turbopackIgnore: true */ p,
        (st.uid % SUBID_BASE) + SUBID_BASE,
        (st.gid % SUBID_BASE) + SUBID_BASE,
      );
      if (!st.isSymbolicLink() && st.mode & 0o6000) await chmod(/* turbopackIgnore: true */ p, st.mode & 0o7777);
    }
    if (st.isDirectory())
      for (const name of await readdir(/* turbopackIgnore: true */ p)) await visit(path.join(p, name));
  };
  await visit(dir);
  return bytes;
}

/** Settings inside the image: the desktop user with passwordless sudo (root inside is not root outside). */
async function customize(rootfs: string, log: Log, started: number) {
  const w = (rel: string, text: string, mode = 0o644) =>
    writeFile(/* turbopackIgnore: true */ path.join(rootfs, rel), text, { mode });
  await run(
    "chroot",
    [
      rootfs,
      "useradd",
      "-m",
      "-d",
      DESKTOP_HOME,
      "-u",
      String(DESKTOP_UID),
      "-U",
      "-s",
      "/bin/bash",
      "-G",
      "sudo",
      DESKTOP_USER,
    ],
    log,
    started,
  );
  await w(`etc/sudoers.d/cabin-${DESKTOP_USER}`, `${DESKTOP_USER} ALL=(ALL) NOPASSWD:ALL\n`, 0o440);
  await w("etc/hostname", `${DESKTOP_HOSTNAME}\n`);
  await w(
    "etc/hosts",
    `127.0.0.1 localhost\n127.0.1.1 ${DESKTOP_HOSTNAME}\n::1 localhost ip6-localhost ip6-loopback\n`,
  );
  // The host's resolver is bind-mounted here at start; the file must exist to be a mount point.
  await rm(/* turbopackIgnore: true */ path.join(rootfs, "etc/resolv.conf"), { force: true });
  await w("etc/resolv.conf", "");
  await w("etc/apt/apt.conf.d/90cabin", 'Binary::apt::APT::Keep-Downloaded-Packages "false";\n');
  await mkdir(/* turbopackIgnore: true */ path.join(rootfs, "etc/chromium.d"), { recursive: true });
  await w(
    "etc/chromium.d/cabin",
    'export CHROMIUM_FLAGS="$CHROMIUM_FLAGS --no-first-run --no-default-browser-check --disable-gpu"\n',
  );
  // Sessions get their own /dev (a tmpfs with the few nodes they need); device nodes
  // left by the bootstrap would only be a way around it.
  for (const name of await readdir(/* turbopackIgnore: true */ path.join(rootfs, "dev"))) {
    await rm(/* turbopackIgnore: true */ path.join(rootfs, "dev", name), { recursive: true, force: true });
  }
  // pivot_root needs a directory for the old root; having it in the image keeps it out of every upper layer.
  await mkdir(/* turbopackIgnore: true */ path.join(rootfs, ".oldroot"), { mode: 0o700 });
  await run("chroot", [rootfs, "fc-cache", "-f"], log, started);
}

/** Work directories of builds whose process is gone (killed mid-build) are ~1 GiB each: remove them. */
async function removeAbandonedBuilds(root: string) {
  for (const name of await readdir(/* turbopackIgnore: true */ root)) {
    const pid = /^\.build-.+-(\d+)$/.exec(name)?.[1];
    if (!pid || existsSync(/* turbopackIgnore: true */ `/proc/${pid}`)) continue;
    await rm(/* turbopackIgnore: true */ path.join(root, name), { recursive: true, force: true });
  }
}

export async function buildImage(
  options: { log?: Log; force?: boolean } = {},
): Promise<DesktopImage & { built: boolean }> {
  const print = options.log ?? ((line) => console.log(line));
  if (process.platform !== "linux") throw new Error("Desktop images are built on Linux only");
  if (process.getuid?.() !== 0) throw new Error("Building the desktop image needs root (mmdebstrap, chroot, chown)");
  const version = imageVersion();
  const existing = findImage(version);
  if (existing && !options.force) return { ...existing, built: false };
  // `npm start` builds in the background; an `npm test` or a second start meanwhile waits for that build.
  const running = imageBuildInProgress(version);
  if (running && !options.force) {
    print(`waiting for the build of ${version} already running (pid ${running.pid}: ${running.step})`);
    while (imageBuildInProgress(version)) await new Promise((resolve) => setTimeout(resolve, 2_000));
    const built = findImage(version);
    if (built) return { ...built, built: false };
    throw new Error(`the other build of desktop image ${version} (pid ${running.pid}) ended without an image`);
  }

  const started = Date.now();
  const root = imagesDir();
  const finalDir = path.join(root, version);
  const work = path.join(root, `.build-${version}-${process.pid}`);
  const rootfs = path.join(work, "rootfs");
  await mkdir(/* turbopackIgnore: true */ root, { recursive: true, mode: 0o755 });
  await removeAbandonedBuilds(root);
  await rm(/* turbopackIgnore: true */ work, { recursive: true, force: true });
  await mkdir(/* turbopackIgnore: true */ work, { mode: 0o755 });
  // Each progress line is also the build's state for a server that is already serving (imageBuildInProgress).
  const progress = { version, pid: process.pid, started_at: new Date(started).toISOString(), step: "starting" };
  const log: Log = (line) => {
    print(line);
    progress.step = line.trim();
    try {
      writeFileSync(/* turbopackIgnore: true */ path.join(work, PROGRESS_FILE), JSON.stringify(progress));
    } catch {
      // the work directory is being renamed or removed: the build is ending
    }
  };
  log("starting");
  try {
    await ensureHostTools(log, started);
    const mirror = getEnv().DESKTOP_IMAGE_MIRROR.replace(/\/$/, "");
    const security = mirror.replace(/\/debian$/, "/debian-security");
    log(`building desktop image ${version} from ${mirror} (${IMAGE_PACKAGES.length} packages and their dependencies)`);
    await run(
      "nice",
      [
        "-n",
        "10",
        "mmdebstrap",
        "--variant=apt",
        '--aptopt=APT::Install-Recommends "false"',
        ...DPKG_EXCLUDES.map((p) => `--dpkgopt=path-exclude=${p}`),
        ...DPKG_INCLUDES.map((p) => `--dpkgopt=path-include=${p}`),
        `--include=${IMAGE_PACKAGES.join(",")}`,
        IMAGE_SUITE,
        rootfs,
        `deb ${mirror} ${IMAGE_SUITE} main`,
        `deb ${mirror} ${IMAGE_SUITE}-updates main`,
        `deb ${security} ${IMAGE_SUITE}-security main`,
      ],
      log,
      started,
    );
    log("configuring the desktop user");
    await customize(rootfs, log, started);
    log(`shifting file owners by ${SUBID_BASE} (root inside a desktop is unprivileged outside)`);
    const size = await shiftOwnership(rootfs);
    await lchown(/* turbopackIgnore: true */ work, 0, 0);
    const manifest: ImageManifest = {
      version,
      suite: IMAGE_SUITE,
      packages: [...IMAGE_PACKAGES],
      built_at: new Date().toISOString(),
      build_seconds: Math.round((Date.now() - started) / 100) / 10,
      size_bytes: size,
      subid_base: SUBID_BASE,
    };
    await writeFile(/* turbopackIgnore: true */ path.join(work, "manifest.json"), JSON.stringify(manifest, null, 2));
    if (existsSync(/* turbopackIgnore: true */ finalDir))
      await rm(/* turbopackIgnore: true */ finalDir, { recursive: true, force: true });
    await rename(/* turbopackIgnore: true */ work, finalDir);
    log(`desktop image ${version}: ${(size / 1048576).toFixed(0)} MiB in ${manifest.build_seconds} s → ${finalDir}`);
    return { version, rootfs: path.join(finalDir, "rootfs"), manifest, built: true };
  } catch (err) {
    await rm(/* turbopackIgnore: true */ work, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}
