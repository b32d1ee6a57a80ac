// Acting on a running session (docs/contract.md "Actions", "Tabs", "Exec"), as the /computers routes, the
// dashboard, MCP and agent tasks reach it. `actOn` is the typed command for in-process clients: a stored
// screenshot comes back as its id (`ScreenshotRef`), not a URL to parse.
export {
  closeTab,
  createTab,
  executeAction,
  executeBatch,
  listTabs,
  routeUnknownPath,
  runNamedAction,
  switchTab,
  actOn,
  actOnUnchecked,
  openTab,
  type ActOutcome,
  type ActionCall,
} from "@/lib/computers/actions/action-service";
export type { ActionResult } from "@/lib/computers/actions/failures";
export type { ActionInput } from "@/lib/computers/actions/actions";
export { actionCall } from "@/lib/computers/sessions/route-context";
export { execSync, runCommand, type ExecInput } from "@/lib/computers/desktop/exec-service";
