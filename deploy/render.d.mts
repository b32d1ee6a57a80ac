// Types for render.mjs, which is plain JS so that `npm run deploy:render` needs no build step.
export declare const KUBERNETES_DIR: string;
export declare const OVERLAYS: string[];
export declare function ensureKubectl(): string;
export declare function render(overlay?: string): string;
