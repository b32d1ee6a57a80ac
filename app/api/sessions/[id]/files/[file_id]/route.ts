// /api/sessions/{id}/files/{file_id}: download or delete one file from the dashboard's Files panel.
import { withMember } from "@/lib/routes/with-member";
import { deleteFile, fileResponse, readFile } from "@/lib/computers/session-files";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member, params }) => {
  const { file, stream } = await readFile({ caller: member, id: params.id, fileId: params.file_id });
  return fileResponse(file, stream);
});

export const DELETE = withMember(async ({ member, params }) => {
  await deleteFile({ caller: member, id: params.id, fileId: params.file_id });
  return new Response(null, { status: 204 });
});
