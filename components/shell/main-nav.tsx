import Link from "next/link";
import { WaitingBadge } from "@/components/handoff/waiting-badge";
import { NAV_ITEMS } from "@/components/shell/nav-items";

function isCurrent(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The navigation item of the page being shown (for the phone header). */
export function currentNavItem(pathname: string) {
  return NAV_ITEMS.find((item) => isCurrent(pathname, item.href));
}

/** `onNavigate`: the phone drawer closes on any choice, the current page included. */
export function MainNav({ pathname, onNavigate }: { pathname: string; onNavigate?: () => void }) {
  return (
    <nav aria-label="Main">
      <ul className="flex flex-col gap-1">
        {NAV_ITEMS.map((item) => {
          const current = isCurrent(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                onClick={onNavigate}
                aria-current={current ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm ${
                  current ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {item.label}
                {item.href === "/tasks" && <WaitingBadge />}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
