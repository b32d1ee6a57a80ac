// Where a login may send the person afterwards: only a path on this site.
// `?next=` comes from a URL anyone can craft, so anything that a browser could
// read as another origin ("//evil", "/\evil", "http:", control characters) is
// refused and the dashboard's home is used instead.

export const DEFAULT_NEXT_PATH = "/sessions";

/** `raw` if it is a same-site relative path, else `fallback`. */
export function safeNextPath(raw: string | null | undefined, fallback: string = DEFAULT_NEXT_PATH): string {
  if (!raw || raw.length > 2048) return fallback;
  if (!raw.startsWith("/") || raw.startsWith("//")) return fallback;
  // Browsers treat "\" like "/" in URLs ("/\evil.example" is protocol-relative).
  if (raw.includes("\\")) return fallback;
  // Tabs and newlines are stripped by URL parsers, so "/\t/evil" would become "//evil".
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fallback;
  try {
    const resolved = new URL(raw, "http://cabin.invalid");
    if (resolved.origin !== "http://cabin.invalid") return fallback;
  } catch {
    return fallback;
  }
  return raw;
}

/** The login page's URL that comes back to `path` (when it is worth coming back to). */
export function loginPathFor(path: string | null | undefined): string {
  const next = safeNextPath(path, "");
  return next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
