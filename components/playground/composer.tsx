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
      className="space-y-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (!props.busy && props.value.trim()) props.onSend();
      }}
    >
      <label htmlFor={id} className="sr-only">
        Message
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id={id}
          rows={2}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Message the model"
          aria-describedby={`${id}-keys`}
          className={
            "block min-w-0 flex-1 resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm " +
            "shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
          }
        />
        {/* Keyed apart: a reused <button> would turn into Send (type submit) within Stop's own click
            and send the draft. */}
        {props.busy ? (
          <Button key="stop" variant="danger" onClick={props.onStop}>
            Stop
          </Button>
        ) : (
          <Button key="send" type="submit" disabled={!props.value.trim()}>
            Send
          </Button>
        )}
      </div>
      <p id={`${id}-keys`} className="text-xs text-slate-500">
        Enter sends, Shift+Enter starts a new line.
      </p>
    </form>
  );
}
