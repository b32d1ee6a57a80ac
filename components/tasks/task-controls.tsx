"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { useTaskControl, type TaskObject } from "@/components/tasks/use-tasks";

/** Pause / Resume / Stop, and a box whose message joins the next model call (shown as queued until then). */
export function TaskControls({ task, onQueued }: { task: TaskObject; onQueued: (message: string) => void }) {
  const control = useTaskControl(task.task_id);
  const [message, setMessage] = useState("");
  // Waiting for a person holds the loop as a pause does: Resume gives control back (no note).
  const paused = task.status === "paused" || task.status === "awaiting_human";
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return;
    control.mutate(
      { action: "messages", message },
      {
        onSuccess: () => {
          onQueued(message);
          setMessage("");
        },
      },
    );
  };
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        {paused ? (
          <Button onClick={() => control.mutate({ action: "resume" })} disabled={control.isPending}>
            Resume
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => control.mutate({ action: "pause" })} disabled={control.isPending}>
            Pause
          </Button>
        )}
        <Button variant="danger" onClick={() => control.mutate({ action: "stop" })} disabled={control.isPending}>
          Stop
        </Button>
      </div>
      <form onSubmit={send} className="flex flex-wrap gap-2" aria-label="Send a message to the agent">
        <label htmlFor="task-message" className="sr-only">
          Message to the agent
        </label>
        <input
          id="task-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="Tell the agent something…"
          className={
            "min-w-0 flex-1 basis-48 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm " +
            "placeholder:text-slate-400 focus:border-brand-500"
          }
        />
        <Button type="submit" variant="secondary" disabled={control.isPending || !message.trim()}>
          Send
        </Button>
      </form>
      {control.isSuccess && control.variables?.action === "messages" && (
        <p role="status" className="text-xs text-slate-600">
          Sent: it joins the next model call{paused ? " after Resume" : ""}.
        </p>
      )}
      {control.error && <Alert>{control.error.message}</Alert>}
    </div>
  );
}
