"use client";

import { useState } from "react";
import { cdpSnippets, cdpTokenExpiry, type CdpSnippet } from "@/components/session-tools/cdp-snippets";
import { CodeBlock } from "@/components/ui/code-block";
import { Card } from "@/components/ui/card";
import { ToggleGroup } from "@/components/ui/toggle-group";
import { formatTime } from "@/components/ui/format";

/** Why there is no CDP URL, in plain words. */
function NoCdp({ ended }: { ended: boolean }) {
  return (
    <div className="space-y-2 text-sm text-slate-700" data-testid="cdp-unavailable">
      {ended ? (
        <p>This session has ended, so there is no browser to connect to.</p>
      ) : (
        <>
          <p className="font-medium text-slate-900">This server does not offer CDP connections.</p>
          <p>
            The operator turned CDP connections off with <code className="font-mono">SESSION_CDP=off</code> (they are on
            by default). Drive this session through the API instead.
          </p>
        </>
      )}
    </div>
  );
}

/** Connect with Playwright: the session's CDP URL and client code that uses it. */
export function CdpPanel({ cdpUrl, ended }: { cdpUrl?: string; ended: boolean }) {
  const [choice, setChoice] = useState<CdpSnippet["id"]>("playwright");
  if (!cdpUrl || ended) {
    return (
      <Card title="Connect with Playwright">
        <NoCdp ended={ended} />
      </Card>
    );
  }
  const expiry = cdpTokenExpiry(cdpUrl);
  const snippets = cdpSnippets(cdpUrl);
  const snippet = snippets.find((s) => s.id === choice) ?? snippets[0];
  return (
    <Card title="Connect with Playwright">
      <div className="space-y-4 text-sm text-slate-700" data-testid="cdp-panel">
        <div className="space-y-2">
          <p>
            Drive this browser from your own code over the Chrome DevTools Protocol. You see this session only: its
            cookies and tabs.
          </p>
          <CodeBlock caption="CDP URL" code={cdpUrl} copyLabel="Copy URL" testId="cdp-url" wrap />
          <p className="text-xs text-slate-500" data-testid="cdp-expiry">
            The URL embeds a short-lived token: anyone holding it can drive this session
            {expiry ? (
              <>
                {" "}
                until <time dateTime={expiry.toISOString()}>{formatTime(expiry.toISOString())}</time>, when the session
                reaches its lifetime
              </>
            ) : null}
            . Treat it like a password.
          </p>
        </div>
        <div className="space-y-2">
          <ToggleGroup
            label="Client"
            look="segmented"
            value={snippet.id}
            onChange={setChoice}
            options={snippets.map((s) => ({ value: s.id, label: s.label }))}
          />
          <CodeBlock
            caption={`${snippet.label} snippet`}
            code={snippet.code}
            copyLabel="Copy code"
            testId={`cdp-snippet-${snippet.id}`}
          />
          <p className="text-xs text-slate-500">
            Closing the client only disconnects it; the session keeps running until it is stopped or expires.
          </p>
        </div>
      </div>
    </Card>
  );
}
