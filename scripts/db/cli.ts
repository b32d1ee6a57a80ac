// Database migration CLI (the prisma CLI's migrate commands cannot run here):
//   deploy          apply pending migrations to DATABASE_URL (npm run db:migrate)
//   create <name>   write a migration for both providers  (npm run db:migration -- <name>)
//   check           fail when schemas or migration histories drift (npm run db:check)
//   status          compare DATABASE_URL with its migrations folder
import { databaseUrl } from "../../lib/env";
import { checkDrift, createMigration, deployMigrations, status } from "./engine";
import { redact } from "../../lib/db-url";

const USAGE = "usage: tsx scripts/db/cli.ts deploy | create <name> | check | status";

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const started = Date.now();
  const done = (what: string) => console.log(`${what} in ${Date.now() - started} ms`);
  switch (command) {
    case "deploy": {
      const url = databaseUrl();
      console.log(`database: ${redact(url)}`);
      const applied = await deployMigrations(url);
      for (const name of applied) console.log(`applied ${name}`);
      done(applied.length ? `applied ${applied.length} migration(s)` : "already up to date");
      return 0;
    }
    case "create": {
      const name = rest.join("_");
      if (!name) throw new Error(`missing migration name\n${USAGE}`);
      const folder = await createMigration(name);
      done(folder ? `created ${folder}` : "nothing to create");
      return 0;
    }
    case "check": {
      await checkDrift();
      done("schemas and migrations agree");
      return 0;
    }
    case "status": {
      const url = databaseUrl();
      const s = await status(url);
      const d = s.diagnosis;
      console.log(`database: ${redact(url)} (${s.provider}), ${s.migrations.length} migration(s) on disk`);
      if (!d.hasMigrationsTable) console.log("no migrations table yet (never deployed)");
      if (d.history) console.log(`history: ${JSON.stringify(d.history)}`);
      if (d.failedMigrationNames.length) console.log(`failed: ${d.failedMigrationNames.join(", ")}`);
      if (d.editedMigrationNames.length) console.log(`edited after apply: ${d.editedMigrationNames.join(", ")}`);
      const behind = !d.hasMigrationsTable || d.history?.diagnostic === "databaseIsBehind";
      console.log(s.upToDate ? "up to date" : behind ? "not up to date: run npm run db:migrate" : "not up to date");
      return s.upToDate ? 0 : 1;
    }
    default:
      console.error(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
      return 2;
  }
}

// Exit explicitly: pg pools and PGlite can keep the event loop alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
