// Browser-side JSON fetch for the dashboard's own API: throws the server's
// error message so TanStack Query surfaces it as-is.
export class RequestFailed extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) throw new RequestFailed(body?.error?.message ?? `Request failed (${res.status})`, res.status);
  return body as T;
}
