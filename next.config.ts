import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-owning packages stay outside the bundle.
  serverExternalPackages: ["node-llama-cpp", "playwright-core", "better-sqlite3", "pino", "pino-pretty"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
