// Prometheus scrape endpoint; hidden (404) unless METRICS_TOKEN is set.
import { withPublic } from "@/lib/routes/handlers";
import { authorizeMetrics, renderMetrics } from "@/lib/routes/metrics-endpoint";

export const dynamic = "force-dynamic";

export const GET = withPublic("api", async ({ req }) => {
  authorizeMetrics(req.headers.get("authorization"));
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
