// A session's termination_reason in words a person understands: a short label
// for badges and a sentence for the page that replaces the viewer.

const REASONS: Record<string, { label: string; sentence: string }> = {
  deleted: {
    label: "stopped",
    sentence: "It was stopped (Stop in the dashboard, or DELETE /computers/{id} from the API).",
  },
  max_lifetime: { label: "lifetime reached", sentence: "It reached its maximum lifetime (max_lifetime_seconds)." },
  inactivity: {
    label: "idle timeout",
    sentence: "Nothing used it for its idle timeout, so it was ended to free the computer.",
  },
  last_tab_closed: { label: "last tab closed", sentence: "Its last open tab was closed." },
  server_shutdown: { label: "server restarted", sentence: "The server shut down or restarted while it ran." },
  crashed: { label: "crashed", sentence: "Its browser or desktop stopped unexpectedly." },
  provision_failed: { label: "failed to start", sentence: "It could not be started." },
};

export function endLabel(reason: string | null): string {
  if (!reason) return "ended";
  return REASONS[reason]?.label ?? reason.replaceAll("_", " ");
}

export function endSentence(reason: string | null): string {
  if (!reason) return "Why it ended was not recorded.";
  return REASONS[reason]?.sentence ?? `It ended: ${reason.replaceAll("_", " ")}.`;
}
