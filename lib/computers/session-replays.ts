// Replays, the front door for routes, the agent, MCP and the dashboard API (docs/replays.md): how a
// session is recorded, kept and served is decided in replays/.
export {
  deleteReplay,
  listReplays,
  readReplay,
  recordForTask,
  startReplay,
  stopReplay,
  stopTaskReplays,
} from "@/lib/computers/replays/replays";
export { startReplaySchema } from "@/lib/computers/replays/replay-service";
