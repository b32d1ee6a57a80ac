"use client";

import { useState } from "react";
import { NewSessionForm } from "@/components/sessions/new-session-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** "New session": the create form in a dialog, so the list is the first thing on the page. */
export function NewSessionButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>New session</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="New session" testId="new-session-dialog">
        <NewSessionForm onCreated={() => setOpen(false)} />
      </Dialog>
    </>
  );
}
