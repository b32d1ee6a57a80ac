"use client";

import "./globals.css";

/** The root layout itself failed: no shell and no providers to lean on, so a plain page with Retry. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main className="flex min-h-full flex-col items-center justify-center gap-4 px-4 py-12 text-center">
          <p className="text-lg font-semibold tracking-tight text-slate-900">
            <span aria-hidden>▣</span> Cabin
          </p>
          <h1 className="text-2xl font-semibold text-slate-900">Cabin could not show this page</h1>
          <p className="max-w-md text-sm text-slate-600">
            Something went wrong on the server. Retry in a moment; if it keeps happening, tell your operator.
          </p>
          {error.digest && <p className="font-mono text-xs text-slate-500">Reference: {error.digest}</p>}
          <div className="flex gap-3">
            <button
              type="button"
              onClick={reset}
              className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              Retry
            </button>
            {/* A full page load on purpose: the app's router may be what failed. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a
              href="/"
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800"
            >
              Home
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
