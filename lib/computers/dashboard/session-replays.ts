// The session page's Replays panel and the task page's replay (docs/dashboard.md
// "Replays"): the replays service (lib/computers/replays) for the member's
// organization, as /computers/{id}/replays is for an API key's. The video's
// address is the dashboard's own route, so the page's <video> plays it with the
// login cookie (the public replay_view_url asks for the API key).
import type { Member } from "@/lib/auth/member";
import {
  deleteReplay,
  listReplays,
  readReplay,
  startReplay,
  stopReplay,
  type ReplayObject,
} from "@/lib/computers/replays/replays";

/** A replay as the dashboard answers it: `replay_view_url` is the member route of its video. */
export type DashboardReplay = ReplayObject;

const scope = (member: Member) => ({ organizationId: member.organizationId });

function forDashboard(replay: ReplayObject): DashboardReplay {
  const url = `/api/sessions/${encodeURIComponent(replay.session_id)}/replays/${encodeURIComponent(replay.replay_id)}`;
  return { ...replay, replay_view_url: url };
}

/** GET /api/sessions/{id}/replays: the session's replays, oldest first, also after it ended. */
export async function listSessionReplaysAs(member: Member, input: { id: string; origin: string }) {
  const { data } = await listReplays({ caller: scope(member), ...input });
  return { data: data.map(forDashboard) };
}

/** POST /api/sessions/{id}/replays {framerate?, max_duration_seconds?}: Record on a live session. */
export async function startSessionReplayAs(member: Member, input: { id: string; body: unknown; origin: string }) {
  return forDashboard(await startReplay({ caller: scope(member), ...input }));
}

/** POST /api/sessions/{id}/replays/{replay_id}/stop. */
export async function stopSessionReplayAs(member: Member, input: { id: string; replayId: string; origin: string }) {
  return forDashboard(await stopReplay({ caller: scope(member), ...input }));
}

/** GET /api/sessions/{id}/replays/{replay_id}: the MP4 with Range, or 202 while it is recorded or finished. */
export function readSessionReplayAs(
  member: Member,
  input: { id: string; replayId: string; range: string | null; origin: string },
) {
  return readReplay({ caller: scope(member), ...input });
}

/** DELETE /api/sessions/{id}/replays/{replay_id}. */
export function deleteSessionReplayAs(member: Member, input: { id: string; replayId: string }) {
  return deleteReplay({ caller: scope(member), ...input });
}
