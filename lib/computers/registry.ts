// The process-wide SessionManager with its drivers. A singleton (`singleton`):
// Next may load lib/ from several bundles (instrumentation, each route), and there
// must be exactly one owner of the browsers and desktops.
import { browserDriver } from "@/lib/computers/browser/browser-driver";
import { desktopDriver } from "@/lib/computers/desktop/desktop-driver";
import { SessionManager } from "@/lib/computers/sessions/manager";
import { singleton, singletonKey } from "@/lib/singleton";

const MANAGER = singletonKey<SessionManager>("sessionManager");

export function getSessionManager(): SessionManager {
  return singleton(MANAGER, () => {
    const manager = new SessionManager();
    manager.registerDriver(browserDriver);
    manager.registerDriver(desktopDriver);
    return manager;
  });
}
