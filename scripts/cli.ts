// Operator CLI: npm run cli -- <command>
import { parseArgs } from "node:util";
import { revokeApiKey } from "../lib/auth/api-keys";
import { generatePassword, operatorCreateKey, operatorCreateOrg, operatorCreateUser } from "../lib/auth/operator";
import { ROLES, type Role } from "../lib/auth/organizations";
import { disconnectDb } from "../lib/db";
import { setKeyBudgetById, setOrganizationBudgetBySlug } from "../lib/models/limits/budget-settings";
import { quotaChangeFromArgs, QUOTA_HELP, quotaSummary } from "./cli-quotas";
import { setOrganizationQuotasBySlug } from "../lib/computers/sessions/quotas-store";

const HELP = `Cabin operator CLI

  npm run cli -- org create NAME [--with-key] [--json]
      --with-key also creates the organization's first API key and prints it (shown once).
  npm run cli -- user create EMAIL --org NAME [--role owner|admin|member] [--name NAME] [--password-stdin]
      Prints a one-time password unless --password-stdin reads one from standard input.
  npm run cli -- keys create --org NAME [--name KEYNAME] [--json]
      Prints the new API key (shown once). --json prints {"key":…,"organization_id":…}.
  npm run cli -- keys revoke PREFIX
  npm run cli -- keys budget KEY_ID USD|none
  npm run cli -- org budget SLUG USD|none
      Monthly spend limit in USD (calendar month, UTC); "none" removes it.
${QUOTA_HELP}`;

function budgetArg(value: string | undefined): number | null {
  if (value === "none") return null;
  const usd = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(usd) || usd < 0)
    throw new Error(`the budget must be a number of USD ≥ 0 or "none" (got ${value ?? "nothing"})`);
  return usd;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: "string" },
      role: { type: "string", default: "owner" },
      name: { type: "string" },
      json: { type: "boolean", default: false },
      "with-key": { type: "boolean", default: false },
      "password-stdin": { type: "boolean", default: false },
      browser: { type: "string" },
      desktop: { type: "string" },
      "creates-per-minute": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [group, action, arg, arg2] = positionals;
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new Error(`missing ${what}\n\n${HELP}`);
    return value;
  };
  if (values.help || !group) return void console.log(HELP);

  if (group === "org" && action === "create") {
    const org = await operatorCreateOrg(need(arg, "NAME"));
    // One command for the usual first step (an organization an agent can call at once) instead of two processes.
    const key = values["with-key"] ? (await operatorCreateKey({ org: org.slug })).key : undefined;
    if (values.json)
      console.log(JSON.stringify({ id: org.id, name: org.name, slug: org.slug, ...(key ? { key } : {}) }));
    else
      console.log(
        `created organization ${org.name} (${org.slug}, id ${org.id})${key ? `\nAPI key (shown once): ${key}` : ""}`,
      );
  } else if (group === "user" && action === "create") {
    const role = values.role as Role;
    if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
    const stdinPassword = values["password-stdin"] ? await readStdin() : null;
    if (stdinPassword !== null && stdinPassword.length < 8)
      throw new Error("the password from stdin must have at least 8 characters");
    const password = stdinPassword ?? generatePassword();
    const { user, organization } = await operatorCreateUser({
      email: need(arg, "EMAIL"),
      password,
      name: values.name,
      org: need(values.org, "--org"),
      role,
    });
    console.log(`created user ${user.email} as ${role} of ${organization.name}`);
    if (stdinPassword === null)
      console.log(
        `one-time password: ${password}\n(log in at /login and keep it somewhere safe; it is not shown again)`,
      );
  } else if (group === "keys" && action === "create") {
    const key = await operatorCreateKey({ org: need(values.org, "--org"), name: values.name });
    console.log(values.json ? JSON.stringify({ key: key.key, organization_id: key.organizationId }) : key.key);
  } else if (group === "keys" && action === "budget") {
    const set = await setKeyBudgetById(need(arg, "KEY_ID"), budgetArg(need(arg2, "USD|none")));
    console.log(
      `key ${set.id}: monthly budget ${set.monthly_budget_usd === null ? "none" : `$${set.monthly_budget_usd}`}`,
    );
  } else if (group === "org" && action === "budget") {
    const set = await setOrganizationBudgetBySlug(need(arg, "SLUG"), budgetArg(need(arg2, "USD|none")));
    console.log(
      `organization ${arg}: monthly budget ${set.monthly_budget_usd === null ? "none" : `$${set.monthly_budget_usd}`}`,
    );
  } else if (group === "org" && action === "quota") {
    const view = await setOrganizationQuotasBySlug(need(arg, "SLUG"), quotaChangeFromArgs(values));
    console.log(values.json ? JSON.stringify(view) : `organization ${arg}: ${quotaSummary(view)}`);
  } else if (group === "keys" && action === "revoke") {
    const revoked = await revokeApiKey({ prefix: need(arg, "PREFIX") });
    console.log(`revoked key ${revoked.prefix}… (${revoked.name})`);
  } else {
    throw new Error(`unknown command: ${positionals.join(" ")}\n\n${HELP}`);
  }
}

run(process.argv.slice(2))
  .then(async () => {
    await disconnectDb();
    process.exit(0);
  })
  .catch(async (err: Error) => {
    console.error(`error: ${err.message}`);
    await disconnectDb().catch(() => {});
    process.exit(1);
  });
