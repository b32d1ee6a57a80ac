"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

const KEY = ["organization"];

/** Better Auth answers `{data, error}`; TanStack Query wants a throw. */
async function unwrap<T>(call: Promise<{ data: T | null; error: { message?: string } | null }>): Promise<T> {
  const { data, error } = await call;
  if (error) throw new Error(error.message ?? "Request failed");
  return data as T;
}

export function useFullOrganization() {
  return useQuery({
    queryKey: KEY,
    queryFn: () =>
      unwrap(authClient.organization.getFullOrganization()) as Promise<{
        id: string;
        name: string;
        members: OrgMember[];
        invitations: OrgInvitation[];
      }>,
  });
}

function useOrgMutation<A>(fn: (args: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }) });
}

export const useInvite = () =>
  useOrgMutation((a: { email: string; role: "admin" | "member" | "owner" }) =>
    unwrap(authClient.organization.inviteMember(a)) as Promise<OrgInvitation>,
  );
export const useUpdateRole = () =>
  useOrgMutation((a: { memberId: string; role: "admin" | "member" | "owner" }) =>
    unwrap(authClient.organization.updateMemberRole(a)),
  );
export const useRemoveMember = () =>
  useOrgMutation((memberIdOrEmail: string) => unwrap(authClient.organization.removeMember({ memberIdOrEmail })));
export const useCancelInvitation = () =>
  useOrgMutation((invitationId: string) => unwrap(authClient.organization.cancelInvitation({ invitationId })));
