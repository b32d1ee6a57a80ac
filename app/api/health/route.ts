import { withPublic } from "@/lib/routes/handlers";
import { healthReport } from "@/lib/health";

export const dynamic = "force-dynamic";

export const GET = withPublic("api", async () => {
  const { healthy, body } = await healthReport();
  return Response.json(body, { status: healthy ? 200 : 503 });
});
