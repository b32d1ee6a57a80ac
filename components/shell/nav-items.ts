export const NAV_ITEMS = [
  { href: "/sessions", label: "Sessions" },
  { href: "/tasks", label: "Tasks" },
  { href: "/browser-profiles", label: "Profiles" },
  { href: "/playground", label: "Playground" },
  { href: "/keys", label: "API keys" },
  { href: "/vault", label: "Credentials" },
  { href: "/usage", label: "Usage" },
  { href: "/api-reference", label: "API reference" },
  { href: "/members", label: "Members" },
  { href: "/settings", label: "Settings" },
] as const;
