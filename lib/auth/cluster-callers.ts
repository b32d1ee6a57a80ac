// Who calls, as the cluster's forwarder must know before it hands a request on (lib/cluster/ports.ts): the
// API key's organization, or the logged-in member's, exactly as the handlers would decide it. Registered by
// `boot` before the node starts, so lib/cluster imports nothing of lib/auth.
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { currentMember } from "@/lib/auth/member";
import { registerClusterPorts } from "@/lib/cluster/ports";

export function registerCallersWithCluster(): void {
  registerClusterPorts({
    callers: {
      async apiKey(authorization) {
        const principal = await authenticateApiKey(authorization).catch(() => null);
        return principal && { organizationId: principal.organizationId, apiKeyId: principal.apiKeyId, member: null };
      },
      async member(headers) {
        const member = await currentMember(headers);
        if (!member) return null;
        const { userId, email, name, role } = member;
        return { organizationId: member.organizationId, apiKeyId: null, member: { userId, email, name, role } };
      },
    },
  });
}
