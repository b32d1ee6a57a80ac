// Session time per kind (the dashboard's usage page, docs/dashboard.md), for the model API's usage report and CSV.
export {
  getSessionUsage,
  loadSessionSpans,
  SESSION_KINDS,
  summarizeSpans,
  type KindUsage,
  type SessionKind,
} from "@/lib/computers/dashboard/session-usage";
