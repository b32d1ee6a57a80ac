"use client";

import { memo } from "react";

/** Lines per block of a streamed answer: finished blocks are left alone while the last one grows. */
const LINES_PER_BLOCK = 12;

/**
 * An answer's text split at line ends into blocks of LINES_PER_BLOCK lines. Every block but
 * the last is finished: while an answer streams only the last block's text changes, so React
 * renders it alone and the browser lays out only it (not the whole answer, per frame), however
 * long the answer grows (docs/dashboard.md "Playground"). A block ends where a line ended, so the
 * blocks, one under another, read exactly as the whole text would.
 */
export function answerBlocks(text: string): string[] {
  const blocks: string[] = [];
  let start = 0;
  let lines = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", end + 1)) {
    if (++lines < LINES_PER_BLOCK) continue;
    blocks.push(text.slice(start, end));
    start = end + 1;
    lines = 0;
  }
  blocks.push(text.slice(start));
  return blocks;
}

/** A finished block: the same text renders nothing new. `contain` keeps its layout to itself. */
const AnswerBlock = memo(function AnswerBlock({ text }: { text: string }) {
  return <div className="[contain:layout_paint]">{text}</div>;
});

/** The answer's text, block by block (answerBlocks); `placeholder` while it has none yet. */
export function AnswerText({ text, placeholder }: { text: string; placeholder: string }) {
  if (!text) return <>{placeholder}</>;
  return (
    <>
      {answerBlocks(text).map((block, index) => (
        // Blocks only grow at the end: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are appended, never reordered
        <AnswerBlock key={index} text={block} />
      ))}
    </>
  );
}
