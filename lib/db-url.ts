// Parses DATABASE_URL-style strings into what the driver adapters need. Shared
// by the migration scripts and `createDb` so both open the same database.
import path from "node:path";

export type ParsedDatabaseUrl = { provider: "sqlite"; file: string } | { provider: "postgresql"; url: string };

export function parseDatabaseUrl(url: string): ParsedDatabaseUrl {
  if (url.startsWith("file:")) {
    // Drop Prisma-style query options (file:./x.db?connection_limit=1): the
    // better-sqlite3 adapter would otherwise treat them as part of the name.
    const raw = url.slice("file:".length).split("?")[0];
    if (!raw) throw new Error(`DATABASE_URL "${url}" has no file path`);
    const file = raw === ":memory:" ? raw : path.resolve(raw);
    return { provider: "sqlite", file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { provider: "postgresql", url };
  throw new Error(`Unsupported DATABASE_URL "${redact(url)}": use file:<path> (SQLite) or postgresql://...`);
}

/** The URL with any password replaced, safe for logs and error messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
