// Deletes profiles no session used for PROFILE_RETENTION_DAYS (docs/profiles.md
// "Retention"). Runs at start and then hourly on every node (one delete query, the
// same answer whichever node runs it); lists and starts also expire their
// organization's profiles first, so an expired profile is never served in between.
import { expireProfiles } from "@/lib/computers/profiles/profiles";
import { getLogger } from "@/lib/logger";

const EVERY_MS = 60 * 60_000;

/** Start-up: the reaper's timer; returns its stop hook. */
export function startProfileReaper(): () => void {
  const round = () =>
    expireProfiles().then(
      (removed) => removed && getLogger().info({ removed }, "unused profiles deleted"),
      (err) => getLogger().warn({ err }, "the profiles reaper failed; it runs again later"),
    );
  void round();
  const timer = setInterval(round, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
