// Process-wide singletons. Next may load one module from several bundles
// (instrumentation, each route, the custom server's fast path), and dev reloads
// re-evaluate modules, so a module-level `let` is not one value per process.
// Each singleton lives on globalThis under a typed key instead.

/** A typed slot on globalThis; `Symbol.for` keeps the key the same across bundles. */
export interface SingletonKey<T> {
  readonly symbol: symbol;
  /** Phantom: carries T for the compiler only. */
  readonly __type?: T;
}

export function singletonKey<T>(name: string): SingletonKey<T> {
  return { symbol: Symbol.for(`cabin.${name}`) };
}

type Slots = Record<symbol, unknown>;
const slots = globalThis as unknown as Slots;

/** The value under `key`, created by `create` the first time any bundle asks. */
export function singleton<T>(key: SingletonKey<T>, create: () => T): T {
  if (!(key.symbol in slots)) slots[key.symbol] = create();
  return slots[key.symbol] as T;
}

/** The value under `key` if one was created, else undefined (no creation). */
export function peekSingleton<T>(key: SingletonKey<T>): T | undefined {
  return slots[key.symbol] as T | undefined;
}

/** Replaces the value (dev reloads that must swap a handler, tests). */
export function setSingleton<T>(key: SingletonKey<T>, value: T): void {
  slots[key.symbol] = value;
}
