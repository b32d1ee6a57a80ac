// A session's streams (docs/computers.md "Events", "Screencast", "Exec"): its events, its screencast and a
// streamed command, for the /computers routes and the dashboard's.
export { openSessionEvents } from "@/lib/computers/events/events-service";
export { replayStart } from "@/lib/computers/events/event-history";
export { openScreencastStream } from "@/lib/computers/live/screencast-stream";
export { execStream } from "@/lib/computers/desktop/exec-stream";
export { execStreamAs, openSessionEventsAs } from "@/lib/computers/dashboard/dashboard-streams";
