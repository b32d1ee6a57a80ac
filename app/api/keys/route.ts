import { z } from "zod";
import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { listApiKeys } from "@/lib/auth/api-keys";
import { createKeyAs } from "@/lib/auth/dashboard";

const CreateKey = z.object({ name: z.string().trim().min(1, "a name is required").max(100) });

export const GET = withMember(async ({ member }) =>
  Response.json({ data: await listApiKeys({ organizationId: member.organizationId }) }),
);

export const POST = withMember(async ({ req, member }) => {
  const { name } = await parseBody(req, CreateKey);
  return Response.json(await createKeyAs(member, name), { status: 201 });
});
