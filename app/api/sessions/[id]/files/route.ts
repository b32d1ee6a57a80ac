// /api/sessions/{id}/files: the session's files for the dashboard's Files panel (docs/files.md),
// the same functions as /computers/{id}/files, for the member's organization.
import { withMember } from "@/lib/routes/with-member";
import { listFiles, uploadFile } from "@/lib/computers/session-files";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member, params }) =>
  Response.json(await listFiles({ caller: member, id: params.id })),
);

export const POST = withMember(async ({ member, params, req }) =>
  Response.json(await uploadFile({ caller: member, id: params.id, request: req }), { status: 201 }),
);
