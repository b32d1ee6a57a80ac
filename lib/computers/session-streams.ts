// A session's streams (docs/computers.md "Events", "Screencast", "Exec"): its events, its screencast (and the
// live view's token, which a take-over link carries) and a streamed command, for the /computers routes, the
// dashboard's and agent tasks.
export { openSessionEvents } from "@/lib/computers/events/events-service";
export { replayStart } from "@/lib/computers/events/event-history";
export { openScreencastStream } from "@/lib/computers/live/screencast-stream";
export { execStream } from "@/lib/computers/desktop/exec-stream";
export { execStreamAs, openSessionEventsAs } from "@/lib/computers/dashboard/dashboard-streams";
export { liveViewToken } from "@/lib/computers/live/token";
