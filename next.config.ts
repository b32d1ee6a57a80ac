import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-owning packages stay outside the bundle.
  serverExternalPackages: ["node-llama-cpp", "playwright-core", "better-sqlite3", "pino", "pino-pretty", "ws"],
  poweredByHeader: false,
  // data/ holds the desktop base image (a whole Debian tree): never trace or bundle it.
  outputFileTracingExcludes: { "*": ["data/**", ".cache/**"] },
  typedRoutes: false,
};

export default nextConfig;
