// Named browser profiles, the front door for routes, the dashboard API, the agent and MCP
// (docs/profiles.md): what a profile holds and who may write it are decided in profiles/.
export { listProfilesAs, type DashboardProfile } from "@/lib/computers/profiles/dashboard-profiles";
export { profileRefSchema, type ProfileRefBody } from "@/lib/computers/profiles/profile-ref";
export { deleteProfile, getProfile, listProfiles } from "@/lib/computers/profiles/profiles";
