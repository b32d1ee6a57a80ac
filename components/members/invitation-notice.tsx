import Link from "next/link";
import type { ReactNode } from "react";

const LINK_PRIMARY = "rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700";
const LINK_SECONDARY =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100";

/** The invite page's box: a heading, plain words, and the ways on ([label, href], the first one primary). */
export function InvitationNotice({
  title,
  children,
  links,
}: {
  title: string;
  children: ReactNode;
  links: [string, string][];
}) {
  return (
    <div
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="invitation-notice"
    >
      <h1 className="text-lg font-semibold">{title}</h1>
      <div className="space-y-2 text-sm text-slate-600">{children}</div>
      <div className="flex flex-wrap gap-2">
        {links.map(([label, href], i) => (
          <Link key={href} href={href} className={i === 0 ? LINK_PRIMARY : LINK_SECONDARY}>
            {label}
          </Link>
        ))}
      </div>
    </div>
  );
}
