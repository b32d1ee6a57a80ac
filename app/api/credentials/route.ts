// The dashboard's vault: every member lists (owners in full, others by name), owners store.
import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { createCredentialBody } from "@/lib/credentials/credential-input";
import { credentialsForMember } from "@/lib/credentials/dashboard";
import { createCredential } from "@/lib/credentials/store";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) => Response.json(await credentialsForMember(member)));

export const POST = withMember(
  async ({ req, member }) => {
    const body = await parseBody(req, createCredentialBody);
    return Response.json(await createCredential(member.organizationId, member.userId, body), { status: 201 });
  },
  { roles: ["owner"] },
);
