// Derives prisma/postgres/schema.prisma from the SQLite source schema. Prisma
// allows one provider per schema file, so the PostgreSQL variant is generated:
// only the datasource provider and the client output folder differ.
// Run directly: `npx tsx scripts/db/derive-postgres.ts`.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { POSTGRES_SCHEMA, SOURCE_SCHEMA, rel } from "./paths";

export const DERIVED_HEADER =
  "// generated from prisma/schema.prisma by scripts/db/derive-postgres.ts, do not edit.\n" +
  "// Edit the source schema, then run `npm run db:migration -- <name>`.\n\n";

/** Replaces `key = "..."` inside the one `<kind> <name> { ... }` block. */
function replaceInBlock(source: string, kind: string, key: string, value: string): string {
  const block = new RegExp(`^${kind}\\s+\\w+\\s*\\{[^}]*\\}`, "gm");
  const blocks = source.match(block) ?? [];
  if (blocks.length !== 1) {
    throw new Error(`expected exactly one ${kind} block in the source schema, found ${blocks.length}`);
  }
  const line = new RegExp(`^(\\s*${key}\\s*=\\s*)"[^"]*"`, "m");
  if (!line.test(blocks[0])) throw new Error(`the ${kind} block has no ${key} = "..." line`);
  const replaced = blocks[0].replace(line, `$1"${value}"`);
  return source.replace(blocks[0], replaced);
}

/** Pure: source schema text → PostgreSQL schema text. */
export function derivePostgresSchema(source: string): string {
  let out = replaceInBlock(source, "datasource", "provider", "postgresql");
  // The output path is relative to the schema file, which is one folder deeper.
  out = replaceInBlock(out, "generator", "output", "../../lib/generated/postgres");
  return DERIVED_HEADER + out;
}

/** Expected content of prisma/postgres/schema.prisma for the current source. */
export function expectedPostgresSchema(): string {
  return derivePostgresSchema(fs.readFileSync(SOURCE_SCHEMA, "utf8"));
}

/** Writes the derived schema when it changed (keeps mtime stable otherwise). */
export function writePostgresSchema(): boolean {
  const next = expectedPostgresSchema();
  const current = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : null;
  if (current === next) return false;
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
  fs.writeFileSync(POSTGRES_SCHEMA, next);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const changed = writePostgresSchema();
  console.log(changed ? `wrote ${rel(POSTGRES_SCHEMA)}` : `${rel(POSTGRES_SCHEMA)} up to date`);
}
