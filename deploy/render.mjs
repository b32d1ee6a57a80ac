// Renders a Kustomize overlay of deploy/kubernetes with `kubectl kustomize`:
//   npm run deploy:render                      # overlays/with-postgres
//   npm run deploy:render -- external-database
// kubectl comes with the machine here; where it is missing and this runs as
// root on Debian, Debian's kubernetes-client is installed with apt-get (its
// Kustomize v2.0.3 renders these manifests as v5 does: they avoid newer syntax).
// Plain Node, no dependencies: also used by tests/unit/deploy-manifests.test.ts.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const KUBERNETES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "kubernetes");
export const OVERLAYS = ["with-postgres", "external-database", "with-postgres-desktops"];

function onPath(command) {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

/** The kubectl to render with, installed first when missing (root on Debian), else an error saying what to install. */
export function ensureKubectl() {
  if (onPath("kubectl")) return "kubectl";
  if (process.getuid?.() === 0 && existsSync("/etc/debian_version")) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "kubernetes-client"], { stdio: "inherit", env });
    if (onPath("kubectl")) return "kubectl";
  }
  throw new Error("kubectl not found: install kubectl (Debian: apt-get install kubernetes-client) to render the manifests");
}

/** The overlay's objects as YAML documents, exactly as `kubectl apply -k` would send them. */
export function render(overlay = "with-postgres") {
  if (!OVERLAYS.includes(overlay)) throw new Error(`unknown overlay ${overlay}: one of ${OVERLAYS.join(", ")}`);
  // stderr is kept apart: Kustomize v5 warns there about the older syntax these files keep for v2.
  return execFileSync(ensureKubectl(), ["kustomize", path.join(KUBERNETES_DIR, "overlays", overlay)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(render(process.argv[2]));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
