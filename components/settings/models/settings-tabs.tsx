import Link from "next/link";

const TABS = [
  { href: "/settings", label: "Organization" },
  { href: "/settings/models", label: "Models" },
] as const;

/** Settings' sections; the current one is marked for assistive technology too. */
export function SettingsTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav aria-label="Settings sections" className="-mt-2 mb-6 border-b border-slate-200">
      <ul className="flex gap-4">
        {TABS.map((tab) => (
          <li key={tab.href}>
            <Link
              href={tab.href}
              aria-current={tab.href === current ? "page" : undefined}
              className={`-mb-px inline-block border-b-2 px-1 pb-2 text-sm font-medium ${
                tab.href === current
                  ? "border-brand-600 text-brand-700"
                  : "border-transparent text-slate-600 hover:text-slate-900"
              }`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
