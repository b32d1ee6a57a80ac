// The time buckets of a usage report (hours or days), shared with the session time the report sets beside
// model usage (lib/computers' `getSessionUsage`). A root of its own: the usage report itself reads session
// time, so that report's root (usage.ts) cannot also be the one session time reads.
export { bucketIndex, bucketSize, type Bucket } from "@/lib/models/usage/usage-range";
