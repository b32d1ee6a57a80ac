// Types of postgres.mjs for the TypeScript tests that start their own PostgreSQL (tests/cluster).
export function freePort(): Promise<number>;
/** Starts a throwaway PostgreSQL server; `url` is a superuser connection URL. */
export function startPostgres(): Promise<{ url: string; stop(): Promise<void> }>;
