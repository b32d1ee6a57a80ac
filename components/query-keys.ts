// Every TanStack Query key of the dashboard, from one factory: a hook and the
// mutations that invalidate its data name the same key, and switching
// organization can invalidate everything at once.
export const queryKeys = {
  me: () => ["me"] as const,
  apiKeys: () => ["api-keys"] as const,
  organization: (organizationId?: string) =>
    organizationId ? (["organization", organizationId] as const) : (["organization"] as const),
  usage: () => ["usage"] as const,
  sessions: {
    all: () => ["sessions"] as const,
    list: (params: { filter: string; q: string; page: number; pageSize: number }) => ["sessions", "list", params] as const,
    createOptions: () => ["sessions", "create-options"] as const,
    tools: (id: string) => ["sessions", "tools", id] as const,
  },
};
