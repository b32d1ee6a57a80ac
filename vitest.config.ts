import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          // One server per vitest process (tests/api/global-setup.ts); files run in sequence
          // against it so timing-sensitive lifecycle tests stay honest on 2 cores. `npm test`
          // runs two such processes side by side, light files beside heavy (the files whose
          // `// @needs` line says `light`: scripts/setup/test-needs.mjs).
          globalSetup: ["tests/api/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "cluster",
          include: ["tests/cluster/**/*.test.ts"],
          environment: "node",
          // Three nodes on one PostgreSQL (docs/cluster.md); the file starts its own servers.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "hardening",
          include: ["tests/hardening/**/*.test.ts"],
          environment: "node",
          // The hardening suites (`npm run test:hardening`, docs/development.md "Hardening suites"): hostile input,
          // isolation, crash,
          // soak, load, slow clients. Same shared server as the API suite; files in sequence
          // because the soak and load suites measure the whole machine.
          globalSetup: ["tests/api/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
