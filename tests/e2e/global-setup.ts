// Starts one real server (fresh data directory and database) for the e2e run.
import type { FullConfig } from "@playwright/test";
import { startServer } from "../api/harness";

export default async function globalSetup(_config: FullConfig) {
  const server = await startServer();
  process.env.CABIN_E2E_URL = server.url;
  return async () => {
    await server.destroy();
  };
}
