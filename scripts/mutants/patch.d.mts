import type { Mutant } from "./catalogue.d.mts";

export declare const ROOT: string;
export declare const MOCK_DIR: string;
export declare function occurrences(text: string, search: string): number;
export declare function applyMutant(text: string, mutant: Mutant): string;
