import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * Code to copy: a caption row with the copy button, then the code full width (it scrolls inside itself, never the
 * page).
 */
export function CodeBlock(props: {
  caption: ReactNode;
  code: string;
  copyLabel: string;
  testId: string;
  wrap?: boolean;
}) {
  return (
    <div className="min-w-0 space-y-1.5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="text-xs font-medium text-slate-600">{props.caption}</div>
        <CopyButton value={props.code} label={props.copyLabel} />
      </div>
      <pre
        className={
          `overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed ` +
          `text-slate-100 ${props.wrap ? "whitespace-pre-wrap break-all" : ""}`
        }
        data-testid={props.testId}
      >
        {props.code}
      </pre>
    </div>
  );
}
