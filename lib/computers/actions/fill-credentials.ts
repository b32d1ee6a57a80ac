// fill_credentials (docs/credentials.md): the action names a credential; here, just
// before the driver fills, the vault opens it and the current one-time code is
// computed. What the session's events and timeline record is the action as sent
// (its name) and the result (which fields were filled): the values stay in this call.
import type { ActionOf } from "@/lib/computers/actions/actions";
import { openCredential } from "@/lib/credentials/store";
import { decodeBase32, totp } from "@/lib/credentials/totp";

/**
 * fill_credentials as a driver's `act` receives it: the credential opened and its one-time code computed. The
 * driver checks the page's host against `domain` and fills (`fillLoginForm`); no result, error or log line
 * carries a value.
 */
export interface FillLoginAction {
  type: "fill_login";
  credential: string;
  domain: string;
  values: Record<string, string>;
  otp: string | null;
  tab_id?: string;
}

export async function loginToFill(
  organizationId: string,
  action: ActionOf<"fill_credentials">,
): Promise<FillLoginAction> {
  const credential = await openCredential(organizationId, action.name);
  const key = credential.totpSecret ? decodeBase32(credential.totpSecret) : null;
  return {
    type: "fill_login",
    credential: credential.name,
    domain: credential.domain,
    values: credential.values,
    otp: key ? totp(key, { at: Date.now() / 1000 }) : null,
    ...(action.tab_id ? { tab_id: action.tab_id } : {}),
  };
}
