/** What the server will take: empty (a blank tab) or an http(s) URL; anything else is named before it is sent. */
export function openTabUrlProblem(url: string): string | null {
  if (url === "") return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Enter a full URL, starting with http:// or https://";
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:"
    ? null
    : `Only http:// and https:// URLs can be opened (not ${parsed.protocol})`;
}
