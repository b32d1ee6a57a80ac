"use client";

import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * The conversation scrolls inside a box of fixed height (neither the page nor
 * the box grows while an answer streams, so Stop and View code stay where they
 * are). It follows the newest text
 * while the reader is at the bottom, and stays put once they scroll up to read.
 */
export function ChatScroller({ children, follow }: { children: ReactNode; follow: unknown }) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [follow]);
  return (
    <div
      ref={box}
      data-testid="playground-scroller"
      tabIndex={0}
      aria-label="Conversation (scrolls)"
      onScroll={(e) => {
        const element = e.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
      }}
      className={
        "h-[42dvh] min-h-48 lg:h-[min(55dvh,32rem)] overflow-y-auto overscroll-contain rounded-md " +
        "focus-visible:outline-2 focus-visible:outline-brand-500"
      }
    >
      {children}
    </div>
  );
}
