// The credential vault (docs/credentials.md): logins an organization keeps for its
// sessions and tasks. What anyone can read back is the name, the domain, the value
// names and whether there is a TOTP secret; the values themselves leave the sealed
// columns only through `openCredential`, for the fill_credentials action.
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/api/errors";
import {
  type CreateCredentialBody,
  type ReplaceCredentialBody,
  assertCredentialName,
} from "@/lib/credentials/credential-input";
import { rowBinding, seal, unseal } from "@/lib/credentials/sealing";
import { getDb } from "@/lib/db";

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof getDb>["credential"]["findFirst"]>>>;

export interface CredentialView {
  name: string;
  domain: string;
  fields: string[];
  has_totp: boolean;
  created_at: string;
  updated_at: string;
}

/** An opened credential: only the fill action holds one, and only while it fills. */
export interface OpenedCredential {
  name: string;
  domain: string;
  values: Record<string, string>;
  totpSecret: string | null;
}

export function describeCredential(row: Row): CredentialView {
  return {
    name: row.name,
    domain: row.domain,
    fields: JSON.parse(row.fieldNames) as string[],
    has_totp: row.totpSealed !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const notFound = (name: string) =>
  new AppError("not_found", `No credential named '${name}' in this organization`, { param: "name" });

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === "P2002";

function sealedContents(organizationId: string, id: string, body: ReplaceCredentialBody) {
  return {
    domain: body.domain,
    fieldNames: JSON.stringify(Object.keys(body.values)),
    valuesSealed: seal(JSON.stringify(body.values), rowBinding(organizationId, id, "values")),
    totpSealed: body.totp_secret ? seal(body.totp_secret, rowBinding(organizationId, id, "totp")) : null,
  };
}

export async function listCredentials(organizationId: string): Promise<CredentialView[]> {
  const rows = await getDb().credential.findMany({ where: { organizationId }, orderBy: { name: "asc" } });
  return rows.map(describeCredential);
}

async function findRow(organizationId: string, name: string): Promise<Row> {
  const row = await getDb().credential.findFirst({ where: { organizationId, name: assertCredentialName(name) } });
  if (!row) throw notFound(name);
  return row;
}

export async function getCredential(organizationId: string, name: string): Promise<CredentialView> {
  return describeCredential(await findRow(organizationId, name));
}

export async function createCredential(
  organizationId: string,
  createdById: string | null,
  body: CreateCredentialBody,
): Promise<CredentialView> {
  const id = `cred_${randomUUID().replace(/-/g, "")}`;
  try {
    const row = await getDb().credential.create({
      data: { id, organizationId, name: body.name, createdById, ...sealedContents(organizationId, id, body) },
    });
    return describeCredential(row);
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError("conflict", `A credential named '${body.name}' already exists in this organization`, {
        param: "name",
        detail: "credential_exists",
      });
    }
    throw err;
  }
}

/** PUT: the domain, values and TOTP secret are replaced as given (a rotated password); name and creation stay. */
export async function replaceCredential(
  organizationId: string,
  name: string,
  body: ReplaceCredentialBody,
): Promise<CredentialView> {
  const row = await findRow(organizationId, name);
  const updated = await getDb().credential.update({
    where: { id: row.id },
    data: sealedContents(organizationId, row.id, body),
  });
  return describeCredential(updated);
}

export async function deleteCredential(organizationId: string, name: string): Promise<{ deleted: true; name: string }> {
  const { count } = await getDb().credential.deleteMany({
    where: { organizationId, name: assertCredentialName(name) },
  });
  if (count === 0) throw notFound(name);
  return { deleted: true, name };
}

/** The values, for filling a login form; never returned by any endpoint. */
export async function openCredential(organizationId: string, name: string): Promise<OpenedCredential> {
  const row = await findRow(organizationId, name);
  return {
    name: row.name,
    domain: row.domain,
    values: JSON.parse(unseal(row.valuesSealed, rowBinding(organizationId, row.id, "values"))) as Record<
      string,
      string
    >,
    totpSecret: row.totpSealed ? unseal(row.totpSealed, rowBinding(organizationId, row.id, "totp")) : null,
  };
}

/** The named credentials as the agent's tool describes them; unknown names are one 400 naming all of them. */
export async function credentialsNamed(
  organizationId: string,
  names: string[],
  param: string,
): Promise<CredentialView[]> {
  const unique = [...new Set(names)];
  const rows = await getDb().credential.findMany({ where: { organizationId, name: { in: unique } } });
  const missing = unique.filter((name) => !rows.some((row) => row.name === name));
  if (missing.length) {
    throw new AppError(
      "invalid_request",
      `No credential named ${missing.map((n) => `'${n}'`).join(", ")} in this organization (see GET /credentials)`,
      { param, detail: "unknown_credential" },
    );
  }
  return unique.map((name) => describeCredential(rows.find((row) => row.name === name)!));
}
