// @ts-check
/** Applying a mutant: an exact search → replace that must match exactly once, so a refactor of the mock cannot silently turn a mutant into a no-op. */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The package the mutants edit. */
export const MOCK_DIR = path.join(ROOT, "packages/mock-server");

/**
 * How often `search` occurs in `text` (non-overlapping, as a replacement would see it).
 * @param {string} text
 * @param {string} search
 */
export function occurrences(text, search) {
  if (search === "") return 0;
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/**
 * The mutated text of the mutant's file.
 * @param {string} text the file's current text
 * @param {import("./catalogue.d.mts").Mutant} mutant
 * @returns {string}
 */
export function applyMutant(text, mutant) {
  const n = occurrences(text, mutant.search);
  if (n !== 1) throw new Error(`mutant ${mutant.id}: its search text occurs ${n} times in packages/mock-server/${mutant.file}, expected exactly once; update the catalogue to the current source`);
  const at = text.indexOf(mutant.search);
  return text.slice(0, at) + mutant.replace + text.slice(at + mutant.search.length);
}
