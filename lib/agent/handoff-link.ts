// The take-over link of a hand-off (docs/agent-tasks.md "Hand-off to a person"):
// /takeover/{task}?token=… opens the task's live view with control and a Done
// button, without a login. The token is a capability (lib/api/capability-token)
// for one hand-off of one task: it stops working when that hand-off ends, and
// expires after AGENT_HANDOFF_LINK_SECONDS, never past the session's expires_at.
import { signCapability, verifyCapability, type Capability } from "@/lib/api/capability-token";
import { getEnv } from "@/lib/env";

const capability = (taskId: string, handoffId: string): Capability => ({
  purpose: "cabin.task-handoff.v1",
  subject: [taskId, handoffId],
});

/** When a link made now stops working: the configured life, or the session's end if sooner. */
export function linkExpiry(sessionExpiresAt: Date, now = Date.now()): number {
  return Math.min(now + getEnv().AGENT_HANDOFF_LINK_SECONDS * 1000, sessionExpiresAt.getTime());
}

export function handoffToken(taskId: string, handoffId: string, expiresAtMs: number): string {
  return signCapability(capability(taskId, handoffId), expiresAtMs);
}

export function verifyHandoffToken(taskId: string, handoffId: string, token: string): boolean {
  return verifyCapability(capability(taskId, handoffId), token);
}

/** The token's expiry (its first part, Unix seconds), for the page to say until when it works. */
export function tokenExpiry(token: string): Date | null {
  const seconds = Number(token.split(".", 1)[0]);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
}

export function takeoverUrl(origin: string, taskId: string, token: string): string {
  return `${origin}/takeover/${encodeURIComponent(taskId)}?token=${encodeURIComponent(token)}`;
}
