// Where a credential may be filled (docs/credentials.md "Where values go"): on its
// domain or a subdomain of it, never on a look-alike (`evil-acme.com`, `acme.com.evil.net`).
import { isIP } from "node:net";

/** A host name as the vault keeps it: lower case, no trailing dot, IPv6 without brackets. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[(.*)\]$/, "$1");
}

/** Whether a page on `pageHost` may receive the values of a credential for `domain`. */
export function hostMatches(pageHost: string, domain: string): boolean {
  const host = normalizeHost(pageHost);
  const wanted = normalizeHost(domain);
  if (!host || !wanted) return false;
  if (host === wanted) return true;
  // An address has no subdomains: 10.0.0.1 is not "under" 0.0.1.
  if (isIP(wanted) || isIP(host)) return false;
  return host.endsWith(`.${wanted}`);
}
