"use client";

import { useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { formatTime } from "@/components/ui/format";
import {
  filesUrl,
  formatBytes,
  useDeleteFile,
  useSessionFiles,
  useUploadFile,
  type FileObject,
} from "@/components/sessions/files-panel-data";

/**
 * The session page's Files panel (docs/files.md): upload by dropping files on it or with
 * its button (a real button, so the keyboard reaches it), download, delete, and the
 * downloads a page or program saves appearing as they arrive. Uploads need a live
 * session; an ended one still lists, downloads and deletes its files.
 */
export function FilesPanel({ sessionId, kind, ended }: { sessionId: string; kind: string; ended: boolean }) {
  const files = useSessionFiles(sessionId, ended);
  const upload = useUploadFile(sessionId);
  const remove = useDeleteFile(sessionId);
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const send = (list: FileList | null) => {
    for (const file of Array.from(list ?? [])) upload.mutate(file);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!ended) send(event.dataTransfer.files);
  };
  const hint =
    kind === "desktop"
      ? "Uploads appear in /workspace/uploads; files saved in ~/Downloads are listed here."
      : "A page's next file chooser gets the latest upload; its downloads are listed here.";
  return (
    <section
      aria-labelledby="files-panel-title"
      data-testid="files-panel"
      onDragOver={(event) => {
        if (ended) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={[
        "rounded-lg border bg-white",
        dragging ? "border-brand-500 ring-2 ring-brand-200" : "border-slate-200",
      ].join(" ")}
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <h2 id="files-panel-title" className="text-sm font-semibold text-slate-900">
          Files
        </h2>
        {!ended && (
          <>
            <Button variant="secondary" onClick={() => picker.current?.click()} disabled={upload.isPending}>
              {upload.isPending ? "Uploading…" : "Upload"}
            </Button>
            <input
              ref={picker}
              type="file"
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              onChange={(event) => {
                send(event.target.files);
                event.target.value = "";
              }}
            />
          </>
        )}
      </header>
      <div className="space-y-3 px-4 py-3 text-sm">
        {!ended && <p className="text-xs text-slate-600">{hint} Drop files here to upload them.</p>}
        {upload.error && (
          <p role="alert" className="text-xs text-red-700">
            {upload.error.message}
          </p>
        )}
        {remove.error && (
          <p role="alert" className="text-xs text-red-700">
            {remove.error.message}
          </p>
        )}
        <FileList
          sessionId={sessionId}
          ended={ended}
          query={files}
          onDelete={(id) => remove.mutate(id)}
          deleting={remove.isPending ? remove.variables : undefined}
        />
      </div>
    </section>
  );
}

function FileList(props: {
  sessionId: string;
  ended: boolean;
  query: ReturnType<typeof useSessionFiles>;
  onDelete: (id: string) => void;
  deleting?: string;
}) {
  const { query } = props;
  if (query.isPending) return <p className="text-xs text-slate-500">Loading files…</p>;
  if (query.isError && !query.data)
    return <ErrorState what="the files" detail={query.error.message} onRetry={() => void query.refetch()} />;
  if (!query.data.length)
    return (
      <p className="text-xs text-slate-500" data-testid="files-empty">
        {props.ended ? "No files: nothing was uploaded or downloaded in this session." : "No files yet."}
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100" aria-label="Session files">
      {query.data.map((file) => (
        <FileRow
          key={file.id}
          file={file}
          href={`${filesUrl(props.sessionId)}/${encodeURIComponent(file.id)}`}
          onDelete={() => props.onDelete(file.id)}
          deleting={props.deleting === file.id}
        />
      ))}
    </ul>
  );
}

function FileRow(props: { file: FileObject; href: string; onDelete: () => void; deleting: boolean }) {
  const { file } = props;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid="file-row">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900" title={file.name}>
          {file.name}
        </p>
        <p className="text-xs text-slate-500">
          <span
            className={
              `mr-1 rounded px-1 ` +
              `py-0.5 ${file.source === "download" ? "bg-emerald-50 text-emerald-800" : "bg-slate-100 text-slate-700"}`
            }
          >
            {file.source}
          </span>
          {formatBytes(file.size)} · {formatTime(file.created_at)}
        </p>
      </div>
      <a
        href={props.href}
        download={file.name}
        className={
          "rounded-md px-2 py-1 text-xs font-medium text-brand-700 underline-offset-2 hover:underline " +
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500"
        }
        aria-label={`Download ${file.name}`}
      >
        Download
      </a>
      <Button
        variant="ghost"
        className="px-2 py-1 text-xs text-red-700"
        onClick={props.onDelete}
        disabled={props.deleting}
        aria-label={`Delete ${file.name}`}
      >
        {props.deleting ? "Deleting…" : "Delete"}
      </Button>
    </li>
  );
}
