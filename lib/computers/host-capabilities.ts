// What this server and an organization's quotas allow (docs/computers.md, docs/configuration.md), for the
// settings page and the health report: desktops, CDP, Chromium, live usage against quotas.
export { availability } from "@/lib/computers/desktop/host";
export { cdpEnabled } from "@/lib/computers/browser/cdp-enabled";
export { chromiumHelp } from "@/lib/computers/browser/find-chromium";
export { liveUsage } from "@/lib/computers/sessions/quotas";
export { organizationQuotaView, type QuotaView } from "@/lib/computers/sessions/quotas-store";
