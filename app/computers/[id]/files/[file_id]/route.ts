import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";

import { deleteFile, fileResponse, readFile } from "@/lib/computers/session-files";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) => {
  const { file, stream } = await readFile({ caller: principal, id: params.id, fileId: params.file_id });
  return fileResponse(file, stream);
});

export const DELETE = withApiKey("api", async ({ principal, params }) => {
  await deleteFile({ caller: principal, id: params.id, fileId: params.file_id });
  return new Response(null, { status: 204 });
});

const wrongMethod = methodNotAllowed(["GET", "DELETE"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH };
