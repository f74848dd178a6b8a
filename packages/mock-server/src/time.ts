/** ISO 8601 UTC without milliseconds, the form the documents' examples use (`2025-05-02T14:10:00Z`). */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Where the seeded dataset's history starts: fixed, so the dataset never depends on the clock. */
export const SEED_EPOCH = Date.UTC(2025, 0, 6, 9, 0, 0);
