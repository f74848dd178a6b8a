/**
 * Output is written, hashed and compared a slice at a time, and the cache pack is serialized in
 * pieces: each must give exactly the bytes the whole-string way gives, whatever characters fall on
 * a slice boundary (a surrogate pair cut in two would become two replacement characters).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkText, sha256Text, utf8Chunks, writeText } from "../../generators/src/write/chunks.js";
import { PackCache } from "../../generators/src/write/content-cache.js";
import { diffOutput, scanAndWriteOutput } from "../../generators/src/write/write.js";
import { workspaceTmpDir } from "./helpers.js";

/** Texts whose slice boundaries (every 1,048,576 and 16,384 characters) fall inside pairs and escapes. */
const TEXTS = ["", "plain", "a".repeat(1_048_575) + "😀" + "b".repeat(70_000), "é".repeat(16_383) + "😀" + '"\\\n\u0001'.repeat(40_000) + "日本", "😀".repeat(100_000)];

describe("slice by slice", () => {
  it("encodes, hashes and writes the same bytes as the whole string", async () => {
    const dir = workspaceTmpDir("chunks-");
    for (const [i, text] of TEXTS.entries()) {
      const whole = Buffer.from(text, "utf8");
      // Each slice is a view of one buffer, valid until the next: copied as it comes.
      expect(Buffer.concat(Array.from(utf8Chunks(text), (chunk) => Buffer.from(chunk))).equals(whole)).toBe(true);
      expect(sha256Text(text)).toBe(createHash("sha256").update(whole).digest("hex"));
      await writeText(path.join(dir, `t${i}`), text);
      expect(readFileSync(path.join(dir, `t${i}`)).equals(whole)).toBe(true);
    }
  });

  it("compares with a file: equal, different at the end, different size, missing", async () => {
    const dir = workspaceTmpDir("chunks-");
    const text = TEXTS[3] as string;
    const file = path.join(dir, "f");
    writeFileSync(file, text);
    const onDisk = async (f: string, t: string): Promise<string> => {
      const check = await checkText(f, t);
      expect(check.sha256).toBe(sha256Text(t));
      return check.onDisk;
    };
    expect(await onDisk(file, text)).toBe("same");
    expect(await onDisk(file, `${text.slice(0, -1)}X`)).toBe("different");
    expect(await onDisk(file, `${text}!`)).toBe("different");
    // Sizes are compared as the slices come: a file that goes on past the new contents differs.
    expect(await onDisk(file, text.slice(0, -1))).toBe("different");
    expect(await onDisk(file, "")).toBe("different");
    writeFileSync(path.join(dir, "empty"), "");
    expect(await onDisk(path.join(dir, "empty"), "")).toBe("same");
    expect(await onDisk(path.join(dir, "empty"), "a")).toBe("different");
    expect(await onDisk(path.join(dir, "missing"), text)).toBe("missing");
  });

  it("writes a copy of a text that differs from the file, or whose file is missing, and none of one that is the same", async () => {
    const dir = workspaceTmpDir("chunks-");
    for (const [i, text] of TEXTS.entries()) {
      const copy = path.join(dir, `missing${i}`);
      const check = await checkText(path.join(dir, "missing"), text, copy);
      expect(check.onDisk).toBe("missing");
      expect(check.sha256).toBe(sha256Text(text));
      expect(readFileSync(copy).equals(Buffer.from(text, "utf8"))).toBe(true);
    }
    const text = TEXTS[2] as string; // two slices
    const file = path.join(dir, "old");
    const cases: [string, string][] = [
      ["the same", text],
      ["different in its first slice", `X${text.slice(1)}`],
      // The first slice matches the file: it is written to the copy too.
      ["different in its last slice", `${text.slice(0, -1)}X`],
      ["shorter than the file", text.slice(0, 1_048_576)],
      ["longer than the file", `${text}!`],
    ];
    for (const [what, next] of cases) {
      writeFileSync(file, text);
      const copy = path.join(dir, `copy-${cases.findIndex(([w]) => w === what)}`);
      const check = await checkText(file, next, copy);
      expect(check.sha256, what).toBe(sha256Text(next));
      if (what === "the same") {
        expect(check.onDisk).toBe("same");
        expect(existsSync(copy), what).toBe(false);
      } else {
        expect(check.onDisk, what).toBe("different");
        expect(readFileSync(copy).equals(Buffer.from(next, "utf8")), what).toBe(true);
      }
    }
  });

  it("writes a package in the same pass: changed and new files replaced, unchanged ones untouched, stale ones removed", async () => {
    const dir = workspaceTmpDir("chunks-");
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src/same.ts"), TEXTS[2] as string);
    writeFileSync(path.join(dir, "src/changed.ts"), "before");
    writeFileSync(path.join(dir, "src/stale.ts"), "left over");
    writeFileSync(path.join(dir, "notes.txt"), "the user's, outside the owned folders");
    const old = new Date("2020-01-01T00:00:00Z");
    utimesSync(path.join(dir, "src/same.ts"), old, old);
    const files = [
      { path: "src/same.ts", contents: TEXTS[2] as string },
      { path: "src/changed.ts", contents: TEXTS[4] as string },
      { path: "compiled/added.js", contents: "new" },
    ];
    const { drift, hashes } = await scanAndWriteOutput(dir, files);
    expect(drift).toEqual({ changed: ["src/changed.ts"], added: ["compiled/added.js"], stale: ["src/stale.ts"] });
    for (const f of files) {
      expect(readFileSync(path.join(dir, f.path), "utf8")).toBe(f.contents);
      expect(hashes.get(f.path)).toBe(sha256Text(f.contents));
    }
    expect(statSync(path.join(dir, "src/same.ts")).mtime).toEqual(old);
    expect(existsSync(path.join(dir, "src/stale.ts"))).toBe(false);
    expect(readFileSync(path.join(dir, "notes.txt"), "utf8")).toBe("the user's, outside the owned folders");
    expect(existsSync(path.join(path.dirname(dir), `.${path.basename(dir)}.contractgen-staging`))).toBe(false);
  });

  it("leaves the previous package as it was when writing fails half-way", async () => {
    const dir = workspaceTmpDir("chunks-");
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src/a.ts"), "previous a");
    writeFileSync(path.join(dir, "src/b.ts"), "previous b");
    // The second file cannot be staged: its folder would have to be the first file.
    const files = [
      { path: "src/a.ts", contents: "new a" },
      { path: "src/a.ts/b.ts", contents: "cannot be" },
    ];
    await expect(scanAndWriteOutput(dir, files)).rejects.toThrow();
    expect(readFileSync(path.join(dir, "src/a.ts"), "utf8")).toBe("previous a");
    expect(readFileSync(path.join(dir, "src/b.ts"), "utf8")).toBe("previous b");
    expect(existsSync(path.join(path.dirname(dir), `.${path.basename(dir)}.contractgen-staging`))).toBe(false);
  });

  it("finds the drift of a package without reading files whole", async () => {
    const dir = workspaceTmpDir("chunks-");
    writeFileSync(path.join(dir, "same.txt"), TEXTS[2] as string);
    writeFileSync(path.join(dir, "changed.txt"), TEXTS[2] as string);
    const drift = await diffOutput(dir, [
      { path: "same.txt", contents: TEXTS[2] as string },
      { path: "changed.txt", contents: TEXTS[3] as string },
      { path: "added.txt", contents: "new" },
    ]);
    expect(drift).toEqual({ changed: ["changed.txt"], added: ["added.txt"], stale: [] });
  });
});

describe("pack cache file", () => {
  it("is JSON.stringify of its sorted entries, written in pieces", async () => {
    const file = path.join(workspaceTmpDir("pack-"), "pack.json");
    const pack = await PackCache.load(file);
    const entries: Record<string, string> = {};
    for (const [i, text] of TEXTS.entries()) entries[`k${i}`] = text;
    for (const key of Object.keys(entries).reverse()) pack.set(key, entries[key] as string);
    await pack.save();
    expect(readFileSync(file, "utf8")).toBe(JSON.stringify({ format: 1, entries }));
    const reloaded = await PackCache.load(file);
    for (const [key, value] of Object.entries(entries)) expect(reloaded.get(key)).toBe(value);
  });
});
