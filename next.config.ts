import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-owning packages stay outside the bundle.
  serverExternalPackages: ["node-llama-cpp", "playwright-core", "better-sqlite3", "pino", "pino-pretty", "ws"],
  poweredByHeader: false,
  // data/ holds the desktop base image (a whole Debian tree): never trace or bundle it.
  outputFileTracingExcludes: { "*": ["data/**", ".cache/**"] },
  typedRoutes: false,
  // `npm start` builds without the type check (scripts/setup/prepare.mjs ensureBuild): a build-time switch
  // of the set-up scripts, not a server setting, so it is read here rather than through lib/env.ts.
  typescript: { ignoreBuildErrors: process.env.CABIN_BUILD_TYPECHECK === "0" },
};

export default nextConfig;
