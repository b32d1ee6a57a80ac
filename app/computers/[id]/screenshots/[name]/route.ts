import { methodNotAllowed, withPublic } from "@/lib/routes/handlers";
import { getScreenshotFile } from "@/lib/computers/screenshots";

export const dynamic = "force-dynamic";

// Public wrapper: the capability token in screenshot_url stands in for the API key.
export const GET = withPublic("api", async ({ req, params }) => {
  const file = await getScreenshotFile({
    id: params.id,
    name: params.name,
    token: new URL(req.url).searchParams.get("token"),
    authorization: req.headers.get("authorization"),
  });
  return new Response(new Uint8Array(file.data), {
    headers: { "content-type": file.mime, "cache-control": "private, max-age=900" },
  });
});

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
