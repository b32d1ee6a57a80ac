import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { createComputer, listComputers } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal }) =>
  Response.json(
    await createComputer({
      principal,
      body: await readJson(req, { optional: true }),
      origin: publicOrigin(req.headers),
    }),
  ),
);

export const GET = withApiKey("api", async ({ req, principal }) => {
  const page = await listComputers({
    principal,
    query: new URL(req.url).searchParams,
    origin: publicOrigin(req.headers),
  });
  return Response.json(page.items, { headers: page.headers });
});

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
