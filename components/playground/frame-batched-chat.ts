"use client";

import { Chat } from "@ai-sdk/react";
import type { ChatInit, UIMessage } from "ai";

/**
 * A useChat `Chat` that shows a streamed answer at the display's pace. The SDK
 * calls its message listeners once per token; useChat answers each call with a
 * synchronous React render (useSyncExternalStore), so a fast model meant one
 * render and one forced layout per token and a frozen page (docs/dashboard.md,
 * "Playground"). Here the listeners run at most once per animation frame, and
 * at once when the status changes, so the last text and "ready" (after Stop or
 * at the end) appear together.
 */
export class FrameBatchedChat<M extends UIMessage> extends Chat<M> {
  constructor(init: ChatInit<M>) {
    super(init);
    const registerMessages = this["~registerMessagesCallback"];
    const registerStatus = this["~registerStatusCallback"];
    const pending = new Set<() => void>();
    let frame: number | undefined;
    const flush = () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
      const due = [...pending];
      pending.clear();
      for (const listener of due) listener();
    };
    this["~registerMessagesCallback"] = (onChange) =>
      registerMessages(() => {
        pending.add(onChange);
        frame ??= requestAnimationFrame(flush);
      });
    this["~registerStatusCallback"] = (onChange) =>
      registerStatus(() => {
        flush();
        onChange();
      });
  }
}
