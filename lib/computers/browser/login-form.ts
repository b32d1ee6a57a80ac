// fill_credentials on a page (docs/credentials.md "Filling"): finds the visible login
// form's fields — user name or e-mail, password, one-time code, and inputs named like
// the credential's other values — and fills them with Playwright's `fill`, so the
// page's framework sees input events. Only on the credential's domain or a subdomain;
// error messages name hosts and fields, never a value.
import type { ElementHandle, Page } from "playwright-core";
import { ActionError } from "@/lib/computers/actions/action-error";
import type { FillLoginAction } from "@/lib/computers/actions/fill-credentials";
import { hostMatches } from "@/lib/credentials/host-match";

/** The values that go into the user-name field, in order of preference. */
const USER_VALUES = ["username", "email", "login", "user"];

interface Found {
  username?: HTMLInputElement;
  password?: HTMLInputElement;
  otp?: HTMLInputElement;
  [extra: string]: HTMLInputElement | undefined;
}

/** Runs in the page: the visible, editable inputs a login form is made of. */
function findLoginFields(extras: string[]): Found {
  const editable = (el: HTMLInputElement) => {
    if (el.disabled || el.readOnly) return false;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const TEXTUAL = new Set(["", "text", "email", "tel", "number", "password", "search"]);
  const inputs = Array.from(document.querySelectorAll("input")).filter(
    (el) => TEXTUAL.has(el.type.toLowerCase()) && editable(el),
  );
  const words = (el: HTMLInputElement) => `${el.name} ${el.id}`.toLowerCase();
  const found: Found = {};
  const passwords = inputs.filter((el) => el.type === "password");
  found.password = passwords.find((el) => el.autocomplete !== "new-password") ?? passwords[0];
  const others = inputs.filter((el) => el.type !== "password");
  found.otp =
    others.find((el) => el.autocomplete === "one-time-code") ??
    others.find((el) => /otp|totp|one.?time|2fa|mfa|(^|[^a-z])code|verif|token/.test(words(el))) ??
    others.find((el) => el.inputMode === "numeric" && el.maxLength > 0 && el.maxLength <= 8);
  const candidates = others.filter((el) => el !== found.otp);
  found.username =
    candidates.find((el) => el.autocomplete === "username" || el.autocomplete === "email" || el.type === "email") ??
    candidates.find((el) => /user|e-?mail|login|account|identifier/.test(words(el))) ??
    // The text input just before the password field, as most forms are laid out.
    (found.password
      ? candidates.filter((el) => el.compareDocumentPosition(found.password!) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1)
      : undefined);
  for (const name of extras) {
    found[`extra:${name}`] = candidates.find(
      (el) => el !== found.username && (el.name.toLowerCase() === name || el.id.toLowerCase() === name),
    );
  }
  return found;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** A failure's message with every value of the credential taken out (a page's error could echo one). */
function scrub(message: string, values: string[]): string {
  let out = message;
  for (const value of values) if (value) out = out.replaceAll(value, "[redacted]");
  return out.split("\n")[0]!;
}

export async function fillLoginForm(page: Page, login: FillLoginAction): Promise<Record<string, unknown>> {
  const url = page.url();
  const host = hostOf(url);
  if (!hostMatches(host, login.domain)) {
    throw new ActionError(
      "conflict",
      `Credential '${login.credential}' is for ${login.domain} (and its subdomains), but the page is ` +
        `on ${host || url}: nothing was filled`,
      { param: "name" },
    );
  }
  const userKey = USER_VALUES.find((key) => login.values[key] !== undefined);
  const extras = Object.keys(login.values).filter((key) => key !== "password" && key !== userKey);
  const fields = await page.evaluateHandle(findLoginFields, extras);
  const secrets = [...Object.values(login.values), ...(login.otp ? [login.otp] : [])];
  const plan: Array<{ field: string; slot: string; value: string }> = [];
  if (userKey) plan.push({ field: "username", slot: "username", value: login.values[userKey]! });
  if (login.values.password !== undefined)
    plan.push({ field: "password", slot: "password", value: login.values.password });
  if (login.otp) plan.push({ field: "otp", slot: "otp", value: login.otp });
  for (const name of extras) plan.push({ field: name, slot: `extra:${name}`, value: login.values[name]! });
  const filled: string[] = [];
  try {
    for (const { field, slot, value } of plan) {
      const element = (await fields.getProperty(slot)).asElement() as ElementHandle<HTMLInputElement> | null;
      if (!element) continue;
      try {
        await element.fill(value, { timeout: 5_000 });
      } catch (err) {
        throw new ActionError("failed", `Filling the ${field} field failed: ${scrub((err as Error).message, secrets)}`);
      } finally {
        await element.dispose();
      }
      filled.push(field);
    }
  } finally {
    await fields.dispose().catch(() => {});
  }
  if (!filled.length) {
    throw new ActionError(
      "failed",
      `No visible login field on ${host} for credential '${login.credential}' (looked for a user name or ` +
        `e-mail, password, one-time code${extras.length ? `, ${extras.join(", ")}` : ""})`,
    );
  }
  return { credential: login.credential, filled };
}
