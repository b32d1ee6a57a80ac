// Types of test-needs.mjs, for the house check (scripts/check-house.ts) and its unit test.
export type Phase = "unit" | "api-sqlite" | "api-sqlite-light" | "api-postgres" | "cluster" | "hardening" | "e2e";
export declare const NEEDS: Record<string, string>;
export declare const PHASE_FOLDERS: Record<Phase, string[]>;
export declare function readNeeds(text: string): string[] | null;
export declare function needsProblems(file: string, needs: string[] | null): string[];
export declare function testFiles(root: string): string[];
export declare function readTestNeeds(root: string): Array<{ file: string; needs: string[] | null }>;
export declare function testNeedsProblems(root: string): string[];
export declare function planTests(entries: Array<{ file: string; needs: string[] | null }>): Record<Phase, string[]>;
