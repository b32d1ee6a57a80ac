"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { WaitingHeaderLink } from "@/components/handoff/waiting-badge";
import { MainNav, currentNavItem } from "@/components/shell/main-nav";
import { OrgSwitcher } from "@/components/shell/org-switcher";
import { UserMenu } from "@/components/shell/user-menu";

const NAV_ID = "app-navigation";

/**
 * The dashboard's frame. From `md` up a fixed sidebar; below it one header row
 * (logo, the current page, a menu button) and the same sidebar as a drawer, so
 * every item stays reachable on a phone and nothing widens the page.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawer = useRef<HTMLElement>(null);

  // The page changed (a link, back or forward): the drawer has done its job.
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    drawer.current?.querySelector<HTMLElement>("a, select, button")?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setDrawerOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  return (
    <div className="min-h-full md:flex">
      <a
        href="#main"
        className={
          "sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed " +
          "focus:top-2 focus:left-2"
        }
      >
        Skip to content
      </a>
      <header
        className={
          "sticky top-0 z-30 flex items-center gap-3 " + "border-b border-slate-200 bg-white px-4 py-2 md:hidden"
        }
      >
        <Logo />
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-600" data-testid="current-page">
          {currentNavItem(pathname)?.label}
        </span>
        <WaitingHeaderLink />
        <button
          type="button"
          aria-expanded={drawerOpen}
          aria-controls={NAV_ID}
          onClick={() => setDrawerOpen((open) => !open)}
          className={
            "rounded-md border border-slate-300 px-3 py-1.5 " + "text-sm font-medium text-slate-800 hover:bg-slate-100"
          }
        >
          {drawerOpen ? "Close" : "Menu"}
        </button>
      </header>
      {drawerOpen && (
        <button
          type="button"
          aria-label="Close menu"
          tabIndex={-1}
          onClick={() => setDrawerOpen(false)}
          className="fixed inset-0 z-30 bg-slate-900/30 md:hidden"
        />
      )}
      <aside
        id={NAV_ID}
        ref={drawer}
        // Open on a phone it is a modal drawer over the page; on a wide window, the plain sidebar.
        role={drawerOpen ? "dialog" : undefined}
        aria-modal={drawerOpen ? true : undefined}
        aria-label={drawerOpen ? "Menu" : undefined}
        className={
          `${drawerOpen ? "fixed inset-y-0 left-0 z-40 flex w-72 max-w-[85vw] shadow-xl" : "hidden"} flex-col ` +
          `gap-4 overflow-y-auto border-r border-slate-200 bg-white px-3 py-4 md:sticky md:top-0 md:flex ` +
          `md:h-screen md:w-56 md:shrink-0 md:shadow-none`
        }
      >
        <div className="space-y-3 px-1">
          <Logo />
          <OrgSwitcher />
        </div>
        <MainNav pathname={pathname} onNavigate={() => setDrawerOpen(false)} />
        <div className="mt-auto border-t border-slate-200 px-1 pt-3">
          <UserMenu />
        </div>
      </aside>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8"
      >
        {children}
      </main>
    </div>
  );
}

function Logo() {
  return (
    <Link href="/" className="shrink-0 text-base font-semibold tracking-tight">
      <span aria-hidden>▣</span> Cabin
    </Link>
  );
}
