"use client";

import { useState } from "react";
import { GiveBackForm } from "@/components/handoff/give-back-form";
import { LiveViewer } from "@/components/session/live-viewer";
import { Card } from "@/components/ui/card";
import { fetchJson } from "@/lib/fetch-json";

export interface TakeoverViewData {
  taskId: string;
  instruction: string;
  reason: string;
  requestedBy: string;
  viewport: { width: number; height: number };
  wsUrl: string;
  expiresAt: string;
}

/** The take-over page: why the task waits, its screen with "Take control", and Done (gives it back). */
export function TakeoverView({ view, token }: { view: TakeoverViewData; token: string }) {
  const [state, setState] = useState<"open" | "sending" | "done" | "ended">("open");
  const [error, setError] = useState<string | null>(null);
  const giveBack = async (note: string) => {
    setState("sending");
    setError(null);
    try {
      await fetchJson(
        `/agent/tasks/${encodeURIComponent(view.taskId)}/handoff/done?token=${encodeURIComponent(token)}`,
        {
          method: "POST",
          body: JSON.stringify(note ? { note } : {}),
        },
      );
      setState("done");
    } catch (err) {
      setError((err as Error).message);
      setState("open");
    }
  };
  if (state === "done")
    return (
      <p
        role="status"
        data-testid="takeover-done"
        className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
      >
        Thank you: the agent has control again and goes on with the task. You can close this page.
      </p>
    );
  return (
    <div className="space-y-4">
      <section
        aria-labelledby="takeover-title"
        className="space-y-1 rounded-lg border-2 border-amber-400 bg-amber-50 px-4 py-3"
        data-testid="takeover-banner"
      >
        <h1 id="takeover-title" className="text-base font-semibold text-amber-950">
          An agent needs you: {view.reason}
        </h1>
        <p className="break-words text-sm text-amber-900">Its task: “{view.instruction}”.</p>
        <p className="text-xs text-amber-900">
          Press Take control, do what is asked on the screen below, then press Done. This link works until{" "}
          {/* Server-rendered: one spelling on both sides (no locale or time-zone mismatch on hydration). */}
          {view.expiresAt.slice(0, 16).replace("T", " ")} UTC.
        </p>
      </section>
      <Card title="Screen">
        {state === "ended" ? (
          <p role="status" className="text-sm text-slate-600">
            The session has ended; there is nothing left to do here.
          </p>
        ) : (
          <LiveViewer wsUrl={view.wsUrl} viewport={view.viewport} onEnded={() => setState("ended")} />
        )}
      </Card>
      <Card title="Give control back">
        <GiveBackForm id="takeover-note" pending={state === "sending"} error={error} onGiveBack={giveBack} />
      </Card>
    </div>
  );
}
