"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * A modal <dialog> (showModal: focus is trapped, Esc closes, the page behind is
 * inert), open while `open` is true. The one dialog every page uses: forms that
 * open from a button (New session) and ConfirmDialog.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={
        "m-auto max-h-[calc(100dvh-2rem)] w-[min(40rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border " +
        "border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
      }
    >
      {open && (
        <div className="space-y-4 p-5">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            <Button variant="ghost" aria-label="Close" className="-mt-1 -mr-2 px-2 py-1" onClick={onClose}>
              ✕
            </Button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

/**
 * The in-app confirmation for actions that cannot be undone (stop a session,
 * revoke a key, remove a member). Opens centred, away from the button that
 * asked, so a double-click cannot confirm; Cancel holds the first focus.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onCancel} title={props.title} testId="confirm-dialog">
      <div className="text-sm text-slate-700">{props.message}</div>
      {props.error && (
        <p role="alert" className="text-sm text-red-700">
          {props.error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" autoFocus onClick={props.onCancel} disabled={props.pending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={props.onConfirm} disabled={props.pending}>
          {props.pending ? "Working…" : props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
