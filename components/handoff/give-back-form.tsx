"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

/**
 * "Give back to the agent": a note of what the person did (the model reads it with a fresh screenshot,
 * docs/agent-tasks.md "Hand-off to a person") and the button that resumes the task.
 */
export function GiveBackForm({
  id,
  onGiveBack,
  pending,
  error,
}: {
  /** Unique on the page: the note's field id. */
  id: string;
  onGiveBack: (note: string) => void;
  pending: boolean;
  error: string | null;
}) {
  const [note, setNote] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onGiveBack(note.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-2" aria-label="Give control back to the agent">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        What did you do? <span className="font-normal text-slate-500">(optional, the agent reads it)</span>
      </label>
      <textarea
        id={id}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        rows={2}
        maxLength={20_000}
        placeholder="Logged in and entered the code; the inbox is open."
        className={
          "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm " +
          "placeholder:text-slate-400 focus:border-brand-500"
        }
      />
      <Button type="submit" disabled={pending} data-testid="give-back">
        {pending ? "Giving back…" : "Done: give back to the agent"}
      </Button>
      {error && <Alert>{error}</Alert>}
    </form>
  );
}
