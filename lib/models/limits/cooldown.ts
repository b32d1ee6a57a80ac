// Cool-down of failing backends: after `failures` consecutive failures a
// backend is skipped for `coolMs` (withFallback tries the next one), then
// tried again; one more failure cools it again at once, one success clears
// it. Pure and per process: each server process learns on its own.

export interface CooldownSettings {
  /** Consecutive failures that start a cool-down; 0 turns cool-downs off. */
  failures: number;
  coolMs: number;
}

export interface CoolingBackend {
  model: string;
  backend: string;
  consecutive_failures: number;
  /** ISO time the cool-down ends. */
  until: string;
}

interface BackendState {
  model: string;
  backend: string;
  failures: number;
  /** Epoch ms the cool-down ends; 0 = not cooling. */
  until: number;
}

export class Cooldowns {
  private readonly states = new Map<string, BackendState>();

  constructor(
    private readonly settings: CooldownSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private key = (model: string, backend: string) => `${model}\u0000${backend}`;

  isCooling(model: string, backend: string): boolean {
    const state = this.states.get(this.key(model, backend));
    return state !== undefined && state.until > this.now();
  }

  failed(model: string, backend: string): void {
    if (this.settings.failures <= 0) return;
    const key = this.key(model, backend);
    const state = this.states.get(key) ?? { model, backend, failures: 0, until: 0 };
    state.failures++;
    if (state.failures >= this.settings.failures) state.until = this.now() + this.settings.coolMs;
    this.states.set(key, state);
  }

  succeeded(model: string, backend: string): void {
    // The common case (nothing on record) costs one failed lookup.
    if (this.states.size) this.states.delete(this.key(model, backend));
  }

  /** The backends cooling now (for /api/health). */
  cooling(): CoolingBackend[] {
    const now = this.now();
    return [...this.states.values()]
      .filter((s) => s.until > now)
      .map((s) => ({
        model: s.model,
        backend: s.backend,
        consecutive_failures: s.failures,
        until: new Date(s.until).toISOString(),
      }));
  }
}
