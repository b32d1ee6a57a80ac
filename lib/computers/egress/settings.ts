// The process's EgressPolicy, from SESSION_EGRESS / SESSION_EGRESS_ALLOW and the
// addresses this host and server listen on.
import os from "node:os";
import { getEnv } from "@/lib/env";
import { singleton, singletonKey } from "@/lib/singleton";
import { EgressPolicy, normalizeIp, parseEgressAllow } from "@/lib/computers/egress/policy";

/** Every address of this host's interfaces (loopback included). */
export function hostInterfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((i) => normalizeIp(i.address.split("%")[0])),
  );
}

const policyKey = singletonKey<EgressPolicy>("egressPolicy");

export function egressPolicy(): EgressPolicy {
  return singleton(policyKey, () => {
    const env = getEnv();
    const host = hostInterfaceAddresses();
    const wildcard = env.HOST === "0.0.0.0" || env.HOST === "::" || env.HOST === "";
    return new EgressPolicy({
      mode: env.SESSION_EGRESS,
      allow: parseEgressAllow(env.SESSION_EGRESS_ALLOW),
      self: { port: env.PORT, addresses: wildcard ? host : [normalizeIp(env.HOST), "127.0.0.1", "::1"] },
      hostAddresses: host,
    });
  });
}
