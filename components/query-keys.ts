// Every TanStack Query key of the dashboard, from one factory: a hook and the
// mutations that invalidate its data name the same key, and switching
// organization can invalidate everything at once.
export const queryKeys = {
  me: () => ["me"] as const,
  apiKeys: () => ["api-keys"] as const,
  credentials: () => ["credentials"] as const,
  organization: (organizationId?: string) =>
    organizationId ? (["organization", organizationId] as const) : (["organization"] as const),
  /** All usage (invalidate after a billed call) or one range's query string. */
  usage: (range?: string) => (range === undefined ? (["usage"] as const) : (["usage", range] as const)),
  organizationSettings: () => ["organization-settings"] as const,
  modelSettings: () => ["model-settings"] as const,
  sessions: {
    all: () => ["sessions"] as const,
    list: (params: { filter: string; q: string; page: number; pageSize: number }) =>
      ["sessions", "list", params] as const,
    createOptions: () => ["sessions", "create-options"] as const,
    /** One session's page (under "sessions", so the list's mutations refresh it too). */
    detail: (id: string) => ["sessions", "detail", id] as const,
    /** One session's replays (the session page's Replays, the task page's replay). */
    replays: (id: string) => ["sessions", "replays", id] as const,
  },
};
