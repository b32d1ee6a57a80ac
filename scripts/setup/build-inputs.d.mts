// Types for build-inputs.mjs, which is plain JS so that prepare.mjs can import it.
export declare const BUILD_INPUTS: string[];
export declare function buildStampFile(root: string): string;
export declare function hashBuildInputs(root: string): string;
export declare function staleBuild(root: string): string | null;
