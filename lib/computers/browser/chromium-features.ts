// The --disable-features switch of the pool's Chromium. Chromium keeps only the last
// --disable-features on its command line, and Playwright passes one of its own, so ours
// carries Playwright's names too and the launch drops Playwright's switch
// (ignoreDefaultArgs: PLAYWRIGHT_DISABLE_FEATURES_FLAG): exactly one reaches Chromium.
// tests/api/browser-sandbox.test.ts checks that on the running browser, so a Playwright
// upgrade that changes its list fails there instead of silently re-enabling its features.

/** Playwright 1.65's own list (chromiumSwitches.ts), in its order, so the flag matches its default exactly. */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chromium 156 preloads the address bar's popup, a WebUI page in a renderer of its own, for every
 * BrowserContext (Target.getTargets lists them as "Omnibox Popup"): a second renderer per session
 * that nobody sees headless. Measured here, 20 contexts made at once: 40 renderers and 6.2 s of
 * renderer CPU with it, 20 and 0.6 s without; on two cores that CPU is what stalled live sessions
 * while a burst of creates ran (the load suite, tests/hardening/load.test.ts). The headless shell
 * that findChromium prefers has no omnibox; this matters where full Chromium runs (CHROMIUM_PATH,
 * or no shell installed).
 */
export const CABIN_DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

export const PLAYWRIGHT_DISABLE_FEATURES_FLAG = `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(",")}`;
export const DISABLE_FEATURES_FLAG = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...CABIN_DISABLED_FEATURES].join(",")}`;
