// What the session page's tools need of a session. The page's own session type
// (the dashboard's session detail) carries these fields and more.
export interface SessionToolsSubject {
  id: string;
  kind: string;
  status: string;
  termination_reason: string | null;
  endpoints: { cdp?: string };
}
