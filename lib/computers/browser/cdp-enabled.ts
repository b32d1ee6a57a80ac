// Whether this server offers CDP endpoints (SESSION_CDP, on by default). Offering
// them means the pool browsers listen for DevTools on the host's loopback
// (CDP_PORT_FLAGS). Desktops run in their own network namespace, where that
// loopback is not reachable, and pages cannot use it (Chromium refuses upgrades
// that carry an Origin): docs/cdp.md. `auto` is the setting's older name for on.
import { getEnv } from "@/lib/env";

export function cdpEnabled(): boolean {
  return getEnv().SESSION_CDP !== "off";
}

/** Why CDP is off, for the 501 a CDP request gets then. */
export function cdpOffReason(): string {
  return (
    "CDP endpoints are turned off on this server (SESSION_CDP=off); the operator can turn them on with " +
    "SESSION_CDP=on (the default)"
  );
}
