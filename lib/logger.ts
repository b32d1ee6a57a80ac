// JSON logs (pino); human-readable in development.
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { getEnv } from "@/lib/env";
import { singleton, singletonKey } from "@/lib/singleton";

const loggerKey = singletonKey<Logger>("logger");

function createLogger(): Logger {
  const env = getEnv();
  const options = {
    level: env.LOG_LEVEL,
    base: { service: "cabin" },
    redact: { paths: ["*.password", "*.authorization", "*.apiKey", "*.proxyUrl"], censor: "[redacted]" },
  };
  // pino-pretty as a stream (not a worker-thread transport) so it survives bundling.
  if (env.NODE_ENV === "development") return pino(options, pretty({ sync: true, colorize: true }));
  return pino(options);
}

export function getLogger(): Logger {
  return singleton(loggerKey, createLogger);
}
