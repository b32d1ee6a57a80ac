// The one way API tests wait: poll a probe until a condition holds, never sleep
// a fixed time. A wait that runs out throws with the last value seen, so a
// condition that never holds fails the test instead of passing by luck.

export interface WaitOptions<T> {
  /** When the probe's value is good enough; default: truthy. */
  until?: (value: T) => boolean;
  timeoutMs?: number;
  intervalMs?: number;
  /** What is awaited, for the timeout's message. */
  message?: string;
}

/** Calls `probe` every `intervalMs` until `until` holds for its value, and returns that value. */
export async function waitFor<T>(probe: () => Promise<T> | T, options: WaitOptions<T> = {}): Promise<T> {
  const { until = (v: T) => Boolean(v), timeoutMs = 15_000, intervalMs = 200, message = "a condition" } = options;
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!until(last)) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}; last value: ${describe(last)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await probe();
  }
  return last;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
