/**
 * write/content-cache.ts PackCache: a file of entries and a journal beside it. Small additions are
 * appended to the journal; the file is rewritten when the journal grows large or many entries go
 * unused. Whatever is on disk, damaged or cut short, a load reads only whole, right entries.
 */
import { existsSync, readFileSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PackCache } from "../../generators/dist/write/content-cache.js";
import { workspaceTmpDir } from "./helpers.js";

const newFile = (): string => path.join(workspaceTmpDir("pack-"), "units.json");

/** A pack on disk with `n` entries k0…k(n-1) of 100 characters each, written whole. */
async function packOf(file: string, n: number): Promise<void> {
  const pack = await PackCache.load(file);
  for (let i = 0; i < n; i++) pack.set(`k${i}`, String(i).padEnd(100, "."));
  await pack.save();
}

/** Loads the pack, reads `keys` (as a run uses them), adds `add`, saves. */
async function run(file: string, keys: readonly string[], add: Readonly<Record<string, string>> = {}): Promise<void> {
  const pack = await PackCache.load(file);
  for (const k of keys) expect(pack.get(k), k).toBeDefined();
  for (const [k, v] of Object.entries(add)) pack.set(k, v);
  await pack.save();
}

const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `k${i}`);

describe("PackCache", () => {
  it("starts empty from a damaged file, and a first save writes the file whole", async () => {
    const file = newFile();
    writeFileSync(file, "{ not json");
    const damaged = await PackCache.load(file);
    expect(damaged.get("a")).toBeUndefined();
    damaged.set("a", "1");
    await damaged.save();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ format: 1, entries: { a: "1" } });
    expect(existsSync(`${file}.log`)).toBe(false);
  });

  it("appends a few new entries to the journal and leaves the file as it was", async () => {
    const file = newFile();
    await packOf(file, 20);
    const before = readFileSync(file, "utf8");
    await run(file, keys(20), { added: "new value", 'with "quotes"\nand a newline': "x\u2028y" });
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(readFileSync(`${file}.log`, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
    const reloaded = await PackCache.load(file);
    expect(reloaded.get("added")).toBe("new value");
    expect(reloaded.get('with "quotes"\nand a newline')).toBe("x\u2028y");
    expect(reloaded.get("k19")).toBe("19".padEnd(100, "."));
  });

  it("skips a journal line cut short and reads the others", async () => {
    const file = newFile();
    await packOf(file, 20);
    await run(file, keys(20), { whole: "1" });
    appendFileSync(`${file}.log`, '["cut", "shor');
    const reloaded = await PackCache.load(file);
    expect(reloaded.get("whole")).toBe("1");
    expect(reloaded.get("cut")).toBeUndefined();
    expect(reloaded.get("k0")).toBeDefined();
  });

  it("ignores a journal without its head line, and replaces it with the next entries it journals", async () => {
    const file = newFile();
    await packOf(file, 20);
    writeFileSync(`${file}.log`, '["k0","not what the file says"]\n');
    expect((await PackCache.load(file)).get("k0")).toBe("0".padEnd(100, "."));
    await run(file, keys(20), { later: "l" });
    const reloaded = await PackCache.load(file);
    expect(reloaded.get("later")).toBe("l");
    expect(reloaded.get("k0")).toBe("0".padEnd(100, "."));
  });

  it("rewrites the file without the unused entries, and empties the journal, when a quarter or more went unused", async () => {
    const file = newFile();
    await packOf(file, 20);
    await run(file, keys(20), { extra: "e" });
    expect(existsSync(`${file}.log`)).toBe(true);
    await run(file, [...keys(14), "extra"]);
    expect(existsSync(`${file}.log`)).toBe(false);
    const entries = (JSON.parse(readFileSync(file, "utf8")) as { entries: Record<string, string> }).entries;
    expect(Object.keys(entries).sort()).toEqual([...keys(14), "extra"].sort());
  });

  it("keeps a few unused entries on disk until the file is rewritten", async () => {
    const file = newFile();
    await packOf(file, 20);
    const size = statSync(file).size;
    await run(file, keys(19));
    expect(statSync(file).size).toBe(size);
    expect((await PackCache.load(file)).get("k19")).toBeDefined();
  });

  it("rewrites the file when the journal would grow past half of it", async () => {
    const file = newFile();
    await packOf(file, 4);
    await run(file, keys(4), { big: "b".repeat(1000) });
    expect(existsSync(`${file}.log`)).toBe(false);
    expect((JSON.parse(readFileSync(file, "utf8")) as { entries: Record<string, string> }).entries["big"]).toBe("b".repeat(1000));
  });
});
