// The dashboard's sessions (docs/dashboard.md): a member's commands and queries, each scoped to the member's
// organization, for the dashboard's /api routes and pages; their result types for its hooks.
export {
  createSessionAs,
  keepSessionAliveAs,
  listDashboardSessions,
  sessionCreateOptions,
  stopSessionAs,
  type DashboardSession,
  type DashboardSessionList,
  type SessionCreateOptions,
  type SessionFilter,
} from "@/lib/computers/dashboard/dashboard";
export {
  closeSessionTabAs,
  listSessionTabsAs,
  navigateSessionTabAs,
  openSessionTabAs,
  readSessionDetail,
  sessionExistsFor,
  switchSessionTabAs,
  type SessionDetail,
  type SessionTab,
} from "@/lib/computers/dashboard/dashboard-session";
export { sessionListChangesAs } from "@/lib/computers/dashboard/session-list-changes";
export { readFinalScreenshotAs, type FinalScreenshotRef } from "@/lib/computers/dashboard/session-review";
export {
  deleteSessionReplayAs,
  listSessionReplaysAs,
  readSessionReplayAs,
  startSessionReplayAs,
  stopSessionReplayAs,
  type DashboardReplay,
} from "@/lib/computers/dashboard/session-replays";
