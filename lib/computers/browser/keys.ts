// Canonical key names (`canonicalKey`) → Playwright's
// keyboard names. The canonical spelling is Playwright's, so the map is the
// identity; it exists so that both drivers read one normaliser.
import { canonicalKey } from "@/lib/computers/sessions/keys";

export function toPlaywrightKey(name: string, param = "keys"): string {
  return canonicalKey(name, param);
}

/** A chord (keys pressed together, modifiers first) as Playwright's "Control+Shift+T". */
export function toChord(keys: string[]): string {
  return keys.map((key) => toPlaywrightKey(key)).join("+");
}
