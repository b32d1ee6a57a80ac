"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { useMe } from "@/components/shell/use-me";
import { authClient } from "@/lib/auth/client";

export interface OrgMember {
  id: string;
  role: string;
  userId: string;
  user: { email: string; name: string };
}

export interface OrgInvitation {
  id: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: string | Date;
}

/** Better Auth answers `{data, error}`; TanStack Query wants a throw. */
async function unwrap<T>(call: Promise<{ data: T | null; error: { message?: string } | null }>): Promise<T> {
  const { data, error } = await call;
  if (error) throw new Error(error.message ?? "Request failed");
  return data as T;
}

/** The organization the dashboard acts in (from /api/me), named explicitly in every call. */
function useOrganizationId(): string | undefined {
  return useMe().data?.organization?.id;
}

export function useFullOrganization() {
  const organizationId = useOrganizationId();
  return useQuery({
    queryKey: queryKeys.organization(organizationId),
    enabled: !!organizationId,
    queryFn: () =>
      unwrap(authClient.organization.getFullOrganization({ query: { organizationId } })) as Promise<{
        id: string;
        name: string;
        members: OrgMember[];
        invitations: OrgInvitation[];
      }>,
  });
}

function useOrgMutation<A>(fn: (args: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organization() }),
  });
}

export function useInvite() {
  const organizationId = useOrganizationId();
  return useOrgMutation(
    (a: { email: string; role: "admin" | "member" | "owner" }) =>
      unwrap(authClient.organization.inviteMember({ ...a, organizationId })) as Promise<OrgInvitation>,
  );
}
export function useUpdateRole() {
  const organizationId = useOrganizationId();
  return useOrgMutation((a: { memberId: string; role: "admin" | "member" | "owner" }) =>
    unwrap(authClient.organization.updateMemberRole({ ...a, organizationId })),
  );
}
export function useRemoveMember() {
  const organizationId = useOrganizationId();
  return useOrgMutation((memberIdOrEmail: string) =>
    unwrap(authClient.organization.removeMember({ memberIdOrEmail, organizationId })),
  );
}
export const useCancelInvitation = () =>
  useOrgMutation((invitationId: string) => unwrap(authClient.organization.cancelInvitation({ invitationId })));
