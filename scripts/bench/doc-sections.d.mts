export interface Section {
  heading: string;
  text: string;
}
export declare function splitSections(md: string): Section[];
export declare function upsertSections(md: string, updates: { key: string; text: string }[], options?: { before?: string[] }): string;
export declare function pickSections(md: string, keys: string[]): Section[];
