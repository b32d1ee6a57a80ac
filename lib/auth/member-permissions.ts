// What a member may do to the other members of their organization, mirroring
// the rules Better Auth's organization plugin enforces (creatorRole "owner",
// default roles): owners and admins invite, change roles and remove; only an
// owner touches an owner or hands out "owner"; nobody removes or demotes the
// last owner. The Members page shows only these controls; the server still
// decides.
import type { Role } from "@/lib/auth/organizations";

export interface MemberRef {
  userId: string;
  role: string;
}

export interface MemberControls {
  /** Roles the viewer may set on this member (empty: no role control). */
  roleOptions: Role[];
  canRemove: boolean;
}

const NONE: MemberControls = { roleOptions: [], canRemove: false };

const manages = (role: string) => role === "owner" || role === "admin";

/** Roles the viewer may invite people with (empty: may not invite). */
export function invitableRoles(viewerRole: string): Role[] {
  if (viewerRole === "owner") return ["member", "admin", "owner"];
  if (viewerRole === "admin") return ["member", "admin"];
  return [];
}

export function canCancelInvitations(viewerRole: string): boolean {
  return manages(viewerRole);
}

/** The controls the viewer gets on `target`'s row; their own row has none (leaving is a settings matter). */
export function memberControls({
  viewer,
  target,
  ownerCount,
}: {
  viewer: MemberRef;
  target: MemberRef;
  ownerCount: number;
}): MemberControls {
  if (viewer.userId === target.userId || !manages(viewer.role)) return NONE;
  const viewerIsOwner = viewer.role === "owner";
  if (target.role === "owner") {
    if (!viewerIsOwner || ownerCount <= 1) return NONE;
    return { roleOptions: ["owner", "admin", "member"], canRemove: true };
  }
  return { roleOptions: viewerIsOwner ? ["owner", "admin", "member"] : ["admin", "member"], canRemove: true };
}
