"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";
import { fetchJson } from "@/lib/fetch-json";
import type { ModelSettings, StoredModelView, ModelTestResult } from "@/lib/models/model-settings";

export type { ModelSettings, ModelTestResult, StoredModelView };

/** What the add and edit forms send (docs/models.md, "Models set up in the dashboard"). */
export interface ModelDraft {
  id?: string;
  provider?: string;
  base_url?: string;
  api_key?: string | null;
  upstream_model?: string;
  prices?: { input: number; output: number };
  capabilities?: Record<string, boolean>;
  aliases?: string[];
}

export function useModelSettings() {
  return useQuery({
    queryKey: queryKeys.modelSettings(),
    queryFn: () => fetchJson<ModelSettings>("/api/models"),
  });
}

/** After any change: this list, and the pages whose pickers list the organization's models (server-rendered). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.modelSettings() });
}

export function useAddModel() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (draft: ModelDraft) =>
      fetchJson<StoredModelView>("/api/models", { method: "POST", body: JSON.stringify(draft) }),
    onSuccess: refresh,
  });
}

export function useEditModel() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, draft }: { id: string; draft: ModelDraft }) =>
      fetchJson<StoredModelView>(`/api/models/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: JSON.stringify(draft),
      }),
    onSuccess: refresh,
  });
}

export function useDeleteModel() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => fetchJson(`/api/models/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

export function useTestModel() {
  return useMutation({
    mutationFn: (id: string) =>
      fetchJson<ModelTestResult>(`/api/models/${encodeURIComponent(id)}/test`, { method: "POST" }),
  });
}
