// The process-wide SessionManager with its drivers. Kept on globalThis: Next may
// load lib/ from several bundles (instrumentation, each route), and there must be
// exactly one owner of the browsers. The desktop driver registers here too.
import { browserDriver } from "@/lib/computers/browser/browser-driver";
import { desktopDriver } from "@/lib/computers/desktop/desktop-driver";
import { SessionManager } from "@/lib/computers/manager";

const g = globalThis as unknown as { cabinSessionManager?: SessionManager };

export function getSessionManager(): SessionManager {
  if (!g.cabinSessionManager) {
    const manager = new SessionManager();
    manager.registerDriver(browserDriver);
    manager.registerDriver(desktopDriver);
    g.cabinSessionManager = manager;
  }
  return g.cabinSessionManager;
}
