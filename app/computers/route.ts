import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { createComputer, listComputers, nextPageHeaders, parseSessionListQuery } from "@/lib/computers/service";

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
  const query = new URL(req.url).searchParams;
  const { items, next } = await listComputers({ principal, query: parseSessionListQuery(query) });
  return Response.json(items, { headers: nextPageHeaders({ origin: publicOrigin(req.headers), query, next }) });
});

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
