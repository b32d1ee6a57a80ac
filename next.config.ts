import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-owning packages stay outside the bundle.
  serverExternalPackages: ["node-llama-cpp", "playwright-core", "better-sqlite3", "pino", "pino-pretty", "ws"],
  poweredByHeader: false,
  // data/ holds the desktop base image (a whole Debian tree): never trace or bundle it.
  outputFileTracingExcludes: { "*": ["data/**", ".cache/**"] },
  typedRoutes: false,
  // `npm start` builds without the type check (scripts/setup/prepare.mjs ensureBuild). This and the cache
  // switch below are build-time switches of the set-up scripts, not server settings: read here, not in lib/env.ts.
  typescript: { ignoreBuildErrors: process.env.CABIN_BUILD_TYPECHECK === "0" },
  // A checkout's first build writes no Turbopack cache (about 25 s at its end that a fresh clone, and CI,
  // never read back); later builds write and read it (a rebuild then takes half the time). Set by ensureBuild.
  experimental: { turbopackFileSystemCacheForBuild: process.env.CABIN_BUILD_CACHE !== "0" },
};

export default nextConfig;
