import { withApiKey } from "@/lib/api/handlers";
import { getScreenshotFile } from "@/lib/computers/action-service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) => {
  const file = await getScreenshotFile({ principal, id: params.id, name: params.name });
  return new Response(new Uint8Array(file.data), {
    headers: { "content-type": file.mime, "cache-control": "private, max-age=900" },
  });
});
