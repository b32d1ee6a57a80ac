"use client";

import { useId, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";

/** The message box: Enter sends, Shift+Enter makes a new line; Stop replaces Send while an answer streams. */
export function Composer(props: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  busy: boolean;
}) {
  const id = useId();
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (!props.busy && props.value.trim()) props.onSend();
  }
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!props.busy && props.value.trim()) props.onSend();
      }}
    >
      <label htmlFor={id} className="sr-only">
        Message
      </label>
      <textarea
        id={id}
        rows={2}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Message the model (Enter sends, Shift+Enter for a new line)"
        className="block min-w-0 flex-1 resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
      />
      {props.busy ? (
        <Button variant="danger" onClick={props.onStop}>
          Stop
        </Button>
      ) : (
        <Button type="submit" disabled={!props.value.trim()}>
          Send
        </Button>
      )}
    </form>
  );
}
