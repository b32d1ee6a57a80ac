import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { listFiles, uploadFile } from "@/lib/computers/session-files";

export const dynamic = "force-dynamic";

// The multipart body streams to disk inside uploadFile (never request.formData(), which buffers it).
export const POST = withApiKey("api", async ({ principal, params, req }) =>
  Response.json(await uploadFile({ caller: principal, id: params.id, request: req }), { status: 201 }),
);

export const GET = withApiKey("api", async ({ principal, params }) =>
  Response.json(await listFiles({ caller: principal, id: params.id })),
);

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
