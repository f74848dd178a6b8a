// The command line of `generate` and `check` is parsed without yargs when it is plain. These
// tables say which command lines take that path and what they mean, and that every other one is
// left to yargs (undefined), which owns help and every usage message.
import { describe, expect, it } from "vitest";
import { quickParse, type QuickOption } from "../../generators/src/quick-args.js";
import { runCli, tmpDir } from "./helpers.js";

const OPTIONS = {
  out: { type: "string", describe: "output folder" },
  "cache-dir": { type: "string", describe: "cache folder" },
  quiet: { type: "boolean", default: false, alias: "q", describe: "quiet" },
  force: { type: "boolean", default: false, describe: "force" },
} as const satisfies Record<string, QuickOption>;

const none = { out: undefined, "cache-dir": undefined, quiet: false, force: false };

describe("quickParse", () => {
  const parsed: { given: string[]; want: { values: Record<string, unknown>; positionals: string[] } }[] = [
    { given: [], want: { values: none, positionals: [] } },
    { given: ["spec/core.yaml"], want: { values: none, positionals: ["spec/core.yaml"] } },
    { given: ["--force", "-q"], want: { values: { ...none, force: true, quiet: true }, positionals: [] } },
    { given: ["--out", "pkg", "a.yaml"], want: { values: { ...none, out: "pkg" }, positionals: ["a.yaml"] } },
    { given: ["--out=pkg dir"], want: { values: { ...none, out: "pkg dir" }, positionals: [] } },
    { given: ["--cache-dir", ""], want: { values: { ...none, "cache-dir": "" }, positionals: [] } },
    // A hostile value is a value: nothing in it is read as a flag.
    { given: ["--out=--force"], want: { values: { ...none, out: "--force" }, positionals: [] } },
  ];
  it.each(parsed)("reads $given", ({ given, want }) => {
    expect(quickParse(given, OPTIONS, 1)).toEqual(want);
  });

  const toYargs: { given: string[]; why: string }[] = [
    { given: ["--help"], why: "help is yargs' to print" },
    { given: ["-h"], why: "help alias" },
    { given: ["--bogus"], why: "an unknown flag gets yargs' message" },
    { given: ["--no-force"], why: "negation is a yargs form" },
    { given: ["--force=false"], why: "a boolean with a value" },
    { given: ["--out"], why: "a string flag without its value" },
    { given: ["--out", "a", "--out", "b"], why: "a repeated flag" },
    { given: ["a.yaml", "b.yaml"], why: "more positionals than the command takes" },
    { given: ["--", "a.yaml"], why: "arguments after --" },
    { given: ["--cacheDir", "x"], why: "camel-case spelling is a yargs form" },
  ];
  it.each(toYargs)("leaves $given to yargs: $why", ({ given }) => {
    expect(quickParse(given, OPTIONS, 1)).toBeUndefined();
  });
});

describe("the CLI on either path", () => {
  it("rejects an unknown flag with a usage error (exit 3) and prints help on --help", async () => {
    const cwd = tmpDir();
    const bad = await runCli(["generate", "--bogus"], cwd);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("Unknown argument: bogus");
    const help = await runCli(["check", "--help"], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--cache-dir");
  });

  it("gives the same answer to a plain command line and to one only yargs reads", async () => {
    const cwd = tmpDir();
    // No spec folder: both paths must reach the same usage error from the target resolver.
    const plain = await runCli(["generate", "-q"], cwd);
    const viaYargs = await runCli(["generate", "--quiet=true"], cwd);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toContain("no spec folder spec/");
    expect(viaYargs.code).toBe(plain.code);
    expect(viaYargs.stderr).toBe(plain.stderr);
  });
});
