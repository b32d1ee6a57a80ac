// Model usage (docs/models.md "Usage"): the usage writer's health. The dashboard's report and CSV, which set
// session time beside model usage, are lib/usage's.
export { usageHealth } from "@/lib/models/usage/usage";
