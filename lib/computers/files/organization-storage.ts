// The organization's storage quota (ORG_STORAGE_MAX_BYTES, docs/files.md "Limits"): every
// stored byte of the organization counts, whichever feature stored it. Session files are the
// first, replays the second; each adds its sum to `storedBytes`, so one quota
// covers them all. The database holds the sums, so every node of a cluster sees the same.
import { AppError } from "@/lib/api/errors";
import { organizationStoredBytes } from "@/lib/computers/files/file-store";
import { organizationReplayBytes } from "@/lib/computers/replays/replay-store";
import { getEnv } from "@/lib/env";

export async function storedBytes(organizationId: string): Promise<number> {
  const [files, replays] = await Promise.all([
    organizationStoredBytes(organizationId),
    organizationReplayBytes(organizationId),
  ]);
  return files + replays;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** Null when `incoming` more bytes fit, else the 413 that says how much is stored and allowed. */
export async function quotaProblem(organizationId: string, incoming: number): Promise<AppError | null> {
  const max = getEnv().ORG_STORAGE_MAX_BYTES;
  if (max === 0) return null;
  const used = await storedBytes(organizationId);
  if (used + incoming <= max) return null;
  return new AppError(
    "payload_too_large",
    `Your organization's storage is full: ${mib(used)} stored of ORG_STORAGE_MAX_BYTES ${mib(max)} (${max} ` +
      `bytes); this file needs ${mib(incoming)}. Delete files (DELETE /computers/{id}/files/{file_id}) or wait for ` +
      `ended sessions' files to expire.`,
    { param: "file", detail: "storage_quota_exceeded" },
  );
}
