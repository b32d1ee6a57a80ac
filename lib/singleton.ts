// Process-wide singletons. Next may load one module from several bundles
// (instrumentation, each route, the custom server's fast path), and dev reloads
// re-evaluate modules, so a module-level `let` is not one value per process.
// Each singleton lives in one Map on globalThis, under a typed key, instead.

/** A typed slot on globalThis; `Symbol.for` keeps the key the same across bundles. */
export interface SingletonKey<T> {
  readonly symbol: symbol;
  /** Phantom: carries T for the compiler only. */
  readonly __type?: T;
}

export function singletonKey<T>(name: string): SingletonKey<T> {
  return { symbol: Symbol.for(`cabin.${name}`) };
}

// All slots are in one Map, itself on globalThis under one symbol: the model
// gateway asks for several singletons per request, and a Map lookup is cheaper
// than a symbol lookup on globalThis (a large dictionary-mode object in Next's process).
const SLOTS = Symbol.for("cabin.singletons");
const slots: Map<symbol, unknown> = ((globalThis as unknown as Record<symbol, Map<symbol, unknown>>)[SLOTS] ??=
  new Map());

/** The value under `key`, created by `create` the first time any bundle asks. */
export function singleton<T>(key: SingletonKey<T>, create: () => T): T {
  let value = slots.get(key.symbol);
  if (value === undefined && !slots.has(key.symbol)) slots.set(key.symbol, (value = create()));
  return value as T;
}

/** The value under `key` if one was created, else undefined (no creation). */
export function peekSingleton<T>(key: SingletonKey<T>): T | undefined {
  return slots.get(key.symbol) as T | undefined;
}

/** Replaces the value (dev reloads that must swap a handler, tests). */
export function setSingleton<T>(key: SingletonKey<T>, value: T): void {
  slots.set(key.symbol, value);
}
