// GET /api/usage/csv — the same range as /api/usage as a CSV download
// (rows per day × model and per day × session kind; see buildUsageCsv).
import { withMember } from "@/lib/routes/with-member";
import { buildUsageCsv, csvResponse } from "@/lib/usage/usage-csv";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member, req }) =>
  csvResponse(await buildUsageCsv({ organizationId: member.organizationId, query: new URL(req.url).searchParams })),
);
