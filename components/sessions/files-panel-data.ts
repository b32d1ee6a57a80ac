"use client";

// The Files panel's data (docs/files.md): the session's files, polled so downloads appear
// as they arrive, and the upload and delete that refresh it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson, RequestFailed } from "@/lib/fetch-json";
// Type-only: erased at compile time, so no server code reaches the browser.
import type { FileObject } from "@/lib/computers/session-files";

export type { FileObject };

const REFRESH_MS = 2_000;

export const filesKey = (sessionId: string) => ["sessions", "files", sessionId] as const;
export const filesUrl = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/files`;

/** Polled while the session runs (a download may arrive at any time); read once after it ended. */
export function useSessionFiles(sessionId: string, ended: boolean) {
  return useQuery({
    queryKey: filesKey(sessionId),
    queryFn: async () => (await fetchJson<{ data: FileObject[] }>(filesUrl(sessionId))).data,
    refetchInterval: ended ? false : REFRESH_MS,
  });
}

export function useUploadFile(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // Not fetchJson: the browser sets the multipart boundary itself.
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      const res = await fetch(filesUrl(sessionId), { method: "POST", body: form });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new RequestFailed(body?.error?.message ?? `Upload failed (${res.status})`, res.status);
      return body as FileObject;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: filesKey(sessionId) }),
  });
}

export function useDeleteFile(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) =>
      fetchJson(`${filesUrl(sessionId)}/${encodeURIComponent(fileId)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: filesKey(sessionId) }),
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
