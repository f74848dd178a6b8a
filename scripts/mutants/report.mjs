// @ts-check
/** docs/mutants.md: the kill rate, every mutant's verdict, and each survivor with the check it needs. */

/**
 * @typedef {import("./catalogue.d.mts").Mutant} Mutant
 * @typedef {{ name: string; message: string }} Failure
 * @typedef {{ mutant: Mutant; verdict: "killed" | "survived" | "invalid"; failures: Failure[]; reason?: string; ms: number }} MutantResult
 * @typedef {{ date: string; commit: string; baselineSummary: string; baselineMs: number; totalMs: number; jobs: number; minRate: number }} RunInfo
 */

/** @param {string} s */
const cell = (s) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The last segment of a vitest test name (`title: conformance > op > op: check` → `op: check`). */
export function shortName(/** @type {string} */ name) {
  const parts = name.split(" > ");
  const last = parts.at(-1) ?? name;
  return parts.at(-2) === "state transitions" ? `state transition: ${last}` : last;
}

/** @param {readonly MutantResult[]} results */
export function tally(results) {
  const killed = results.filter((r) => r.verdict === "killed").length;
  // A survivor the catalogue explains as equivalent (no answer of the server changes) is reported
  // but left out of the rate; were it killed, the explanation would be wrong and it counts as killed.
  const equivalent = results.filter((r) => r.verdict === "survived" && r.mutant.equivalent !== undefined).length;
  const survived = results.filter((r) => r.verdict === "survived").length - equivalent;
  const invalid = results.filter((r) => r.verdict === "invalid").length;
  const valid = killed + survived;
  return { killed, survived, equivalent, invalid, rate: valid === 0 ? 0 : (100 * killed) / valid };
}

/**
 * @param {readonly MutantResult[]} results
 * @param {RunInfo} info
 */
export function renderReport(results, info) {
  const t = tally(results);
  const lines = [
    "# Mutation test of the generated contract suites",
    "",
    "Written by `npm run mutants` (`scripts/mutants/`); do not edit by hand. Each mutant is one realistic",
    "implementation bug of the mock server (`packages/mock-server`), drawn from the documents' state tables,",
    "limits and rules. For each, a private copy of the mock is mutated and built with tsc; each package's",
    "conformance suite runs through `contractgen test --destructive` against a fresh process of it on a free",
    "loopback port (the suites change the server's state, so each gets its own).",
    "A mutant is **killed** when at least one test fails that passes against the unmutated mock, **survived**",
    "otherwise, **invalid** when its build or server does not start (a broken mutant, not a kill), and",
    "**equivalent** when it survives and the catalogue shows why no answer of the server can differ (left",
    "out of the rate, listed with the reason below).",
    "",
    `- Run: ${info.date}, at commit \`${info.commit}\`, ${info.jobs} mutant(s) at a time, ${(info.totalMs / 60_000).toFixed(1)} min in all.`,
    `- Baseline (unmutated mock): ${info.baselineSummary} in ${(info.baselineMs / 1000).toFixed(1)} s.`,
    `- **Kill rate: ${t.rate.toFixed(1)}%** (${t.killed} killed of ${t.killed + t.survived} valid mutants; ${t.equivalent} equivalent, ${t.invalid} invalid). Target: ${info.minRate}%.`,
    "",
    `${t.killed} killed, ${t.survived} survived`,
    "",
    "## Every mutant",
    "",
    "| id | API | fact broken | verdict | failing tests |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const r of results) {
    const names = [...new Set(r.failures.map((f) => shortName(f.name)))];
    const shown =
      names
        .slice(0, 3)
        .map((n) => `\`${cell(n)}\``)
        .join("<br>") + (names.length > 3 ? `<br>… ${names.length - 3} more` : "");
    const verdict = r.verdict === "invalid" ? `invalid: ${cell(r.reason ?? "")}` : r.verdict === "survived" && r.mutant.equivalent !== undefined ? "equivalent" : r.verdict;
    lines.push(`| \`${r.mutant.id}\` | ${r.mutant.api} | ${cell(r.mutant.fact ?? r.mutant.note ?? "")} | ${verdict} | ${shown} |`);
  }
  const equivalents = results.filter((r) => r.verdict === "survived" && r.mutant.equivalent !== undefined);
  if (equivalents.length > 0) {
    lines.push("", "## Equivalent mutants (left out of the rate)", "");
    for (const r of equivalents) lines.push(`- **\`${r.mutant.id}\`** (${r.mutant.api}): ${r.mutant.bug} ${cell(r.mutant.equivalent ?? "")}`);
  }
  const survivors = results.filter((r) => r.verdict === "survived" && r.mutant.equivalent === undefined);
  lines.push("", "## Survivors, by the check that would catch them", "");
  if (survivors.length === 0) lines.push("None.");
  /** @type {Map<string, MutantResult[]>} */
  const groups = new Map();
  for (const r of survivors) groups.set(r.mutant.check, [...(groups.get(r.mutant.check) ?? []), r]);
  for (const [kind, group] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`### ${kind} (${group.length})`, "");
    for (const r of group) {
      lines.push(`- **\`${r.mutant.id}\`** (${r.mutant.api}, \`${r.mutant.file}\`): ${r.mutant.bug}`);
      lines.push(`  - Breaks: ${r.mutant.fact}`);
      lines.push(`  - Missed: ${r.mutant.missed ?? "no case makes this request sequence or checks this value."}`);
      lines.push(`  - Needed: ${r.mutant.detect}`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd() + "\n";
}
