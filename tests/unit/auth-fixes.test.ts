// @needs nothing
import { describe, expect, it } from "vitest";
import { invitableRoles, memberControls } from "@/lib/auth/member-permissions";
import { loginPathFor, safeNextPath } from "@/lib/auth/next-path";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/usage")).toBe("/usage");
    expect(safeNextPath("/sessions/abc?tab=2#x")).toBe("/sessions/abc?tab=2#x");
  });
  it.each([
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "http://evil.example",
    "https:evil",
    "javascript:alert(1)",
    "usage",
    "/\t/evil.example",
    "/\n/evil",
    "",
  ])("refuses %j", (raw) => expect(safeNextPath(raw)).toBe("/sessions"));
  it("refuses nothing-given with the fallback", () => expect(safeNextPath(null, "/x")).toBe("/x"));
  it("builds the login URL that comes back", () => {
    expect(loginPathFor("/usage")).toBe("/login?next=%2Fusage");
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("//evil.example")).toBe("/login");
  });
});

describe("memberControls", () => {
  const owner = { userId: "o", role: "owner" };
  const admin = { userId: "a", role: "admin" };
  const member = { userId: "m", role: "member" };
  it("gives a member nothing, on any row", () => {
    for (const target of [owner, admin, { userId: "m2", role: "member" }]) {
      expect(memberControls({ viewer: member, target, ownerCount: 1 })).toEqual({ roleOptions: [], canRemove: false });
    }
    expect(invitableRoles("member")).toEqual([]);
  });
  it("lets an admin manage admins and members but not owners, nor hand out owner", () => {
    expect(memberControls({ viewer: admin, target: member, ownerCount: 2 })).toEqual({
      roleOptions: ["admin", "member"],
      canRemove: true,
    });
    expect(memberControls({ viewer: admin, target: owner, ownerCount: 2 }).canRemove).toBe(false);
    expect(invitableRoles("admin")).not.toContain("owner");
  });
  it("lets an owner manage another owner only while one would remain", () => {
    const other = { userId: "o2", role: "owner" };
    expect(memberControls({ viewer: owner, target: other, ownerCount: 2 }).canRemove).toBe(true);
    expect(memberControls({ viewer: owner, target: other, ownerCount: 1 })).toEqual({
      roleOptions: [],
      canRemove: false,
    });
    expect(memberControls({ viewer: owner, target: member, ownerCount: 1 }).roleOptions).toContain("owner");
  });
  it("gives nobody controls on their own row", () => {
    expect(memberControls({ viewer: owner, target: owner, ownerCount: 3 }).roleOptions).toEqual([]);
  });
});
