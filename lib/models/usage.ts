// Model usage (docs/models.md "Usage"): the dashboard's report and CSV, and the usage writer's health.
export { buildUsageCsv, csvResponse } from "@/lib/models/usage/usage-csv";
export { getUsageReport, type UsageReport } from "@/lib/models/usage/usage-report";
export { usageHealth } from "@/lib/models/usage/usage";
