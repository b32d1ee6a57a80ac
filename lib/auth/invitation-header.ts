// Shared by the sign-up form (browser) and the sign-up hook (server), so it
// lives apart from the database code of `joinInvitationAtSignUp`.

/** The request header the sign-up form sends when it was opened from an invitation link. */
export const INVITATION_HEADER = "x-cabin-invitation";
