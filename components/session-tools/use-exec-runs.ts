"use client";

import { useCallback, useRef, useState } from "react";

/** Runs kept for this page visit (newest first). */
export const EXEC_HISTORY = 10;

export interface ExecChunk {
  stream: "stdout" | "stderr";
  text: string;
}

export interface ExecRun {
  id: number;
  command: string;
  chunks: ExecChunk[];
  state: "running" | "exited" | "stopped" | "failed";
  exitCode: number | null;
  error: string | null;
}

export interface ExecRequest {
  command: string;
  cwd?: string;
  timeoutSeconds?: number;
}

type Line =
  | { type: "stdout" | "stderr"; data: string }
  | { type: "exit"; code: number }
  | { type: "error"; code: string; message: string };

async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let at = buffer.indexOf("\n");
    while (at >= 0) {
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      if (line) yield JSON.parse(line) as Line;
      at = buffer.indexOf("\n");
    }
    if (done) return;
  }
}

/**
 * The exec console's runs: POST /api/sessions/{id}/exec read line by line as it
 * streams. Stop aborts the request; the server kills the command's process group
 * when the client goes away.
 */
export function useExecRuns(sessionId: string, onStarted?: (requestId: string, command: string) => void) {
  const [runs, setRuns] = useState<ExecRun[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const nextId = useRef(1);

  const update = (id: number, change: (run: ExecRun) => ExecRun) =>
    setRuns((all) => all.map((r) => (r.id === id ? change(r) : r)));

  const run = useCallback(
    async (request: ExecRequest) => {
      const id = nextId.current++;
      const controller = new AbortController();
      abortRef.current = controller;
      setRuns((all) =>
        [
          { id, command: request.command, chunks: [], state: "running" as const, exitCode: null, error: null },
          ...all,
        ].slice(0, EXEC_HISTORY),
      );
      try {
        const res = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/exec`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            command: request.command,
            ...(request.cwd ? { cwd: request.cwd } : {}),
            ...(request.timeoutSeconds ? { timeout_seconds: request.timeoutSeconds } : {}),
          }),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
          throw new Error(body?.error?.message ?? `The server answered ${res.status}`);
        }
        // The run's request id is the one its output carries on the session's events.
        const requestId = res.headers.get("x-request-id");
        if (requestId) onStarted?.(requestId, request.command);
        for await (const line of ndjsonLines(res.body)) {
          if (line.type === "exit") {
            const code = line.code;
            update(id, (r) => ({ ...r, state: "exited", exitCode: code }));
          } else if (line.type === "error") {
            const message = line.message;
            update(id, (r) => ({ ...r, state: "failed", error: message }));
          } else {
            const chunk = { stream: line.type, text: line.data };
            update(id, (r) => ({ ...r, chunks: [...r.chunks, chunk] }));
          }
        }
      } catch (err) {
        if (controller.signal.aborted) update(id, (r) => ({ ...r, state: "stopped" }));
        else update(id, (r) => ({ ...r, state: "failed", error: err instanceof Error ? err.message : String(err) }));
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        // A stream that closed without an exit line did not finish normally.
        update(id, (r) =>
          r.state === "running" ? { ...r, state: "failed", error: "The stream ended before the command did" } : r,
        );
      }
    },
    [sessionId, onStarted],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);
  const running = runs.some((r) => r.state === "running");
  return { runs, running, run, stop };
}
