// Whether this server offers CDP endpoints (SESSION_CDP). Offering them means
// the pool browsers listen for DevTools on host loopback (CDP_PORT_FLAGS), and
// desktop sessions still share the host's network namespace: a process inside
// a desktop could then drive every browser session of every organization. So
// `auto` (the default) turns CDP on only where desktops cannot run; an operator
// who runs both and trusts every desktop user sets SESSION_CDP=on.
import { getEnv } from "@/lib/env";
import { availability } from "@/lib/computers/desktop/host";

let decided: boolean | undefined;

export function cdpEnabled(): boolean {
  const mode = getEnv().SESSION_CDP;
  if (mode !== "auto") return mode === "on";
  decided ??= !availability().ok;
  return decided;
}

/** Why CDP is off, for the 501 a CDP request gets then. */
export function cdpOffReason(): string {
  return getEnv().SESSION_CDP === "off"
    ? "CDP endpoints are turned off on this server (SESSION_CDP=off)"
    : "CDP endpoints are off on this server because it also runs desktop sessions, which share the host's network (SESSION_CDP=auto); the operator can set SESSION_CDP=on";
}
