// One shared server per API run, with two organizations (A and B) and a key each.
import type { TestProject } from "vitest/node";
import { createOrgKey, startServer, type TestServer } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    apiKeyB: string;
    databaseUrl: string;
    dataDir: string;
  }
}

let server: TestServer | undefined;

export async function setup(project: TestProject) {
  server = await startServer();
  const [apiKey, apiKeyB] = await Promise.all([createOrgKey(server, "Org A"), createOrgKey(server, "Org B")]);
  project.provide("baseUrl", server.url);
  project.provide("apiKey", apiKey);
  project.provide("apiKeyB", apiKeyB);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("dataDir", server.dataDir);
}

export async function teardown() {
  await server?.destroy();
}
