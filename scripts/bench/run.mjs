#!/usr/bin/env node
// npm run bench: our generator beside openapi-typescript and @hey-api/openapi-ts, in one run, on
// this machine. Prints median wall time and peak memory per case and writes docs/benchmarks.md.
//
//   --profile        also profile `generate --force` on GitHub (scripts/bench/profile.mjs)
//   --only=peers     only the peer rows, targets and type-check (the Peers section)
//   --only=profile   only the profile (as npm run bench:profile)
//   --only=mock      only `contractgen mock --spec` beside Prism and bare Fastify (scripts/bench/mock-spec.mjs;
//                    BENCH_MOCK_ROUNDS, default 5, BENCH_LOAD_SECONDS, default 5, BENCH_MOCK_DOCS, default all)
//   --note=TEXT      a line put at the top of the sections written (e.g. how loaded the machine was)
//
// A run replaces the sections it measured and keeps the others: the hand-written "Work in
// progress" section always, and the profile section when this run did not profile.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bench as benchRow, benchRounds, median, settle } from "./measure.mjs";
import { pickSections, upsertSections } from "./doc-sections.mjs";
import { checkHeyapiOffline, heyapiCommand, heyapiEngine, heyapiVersion } from "./heyapi.mjs";
import { PEERS_SECTION, peersSection } from "./peers.mjs";
import { PROFILE_SECTION, profileGithub, profileSection } from "./profile.mjs";
import { MOCK_SPEC_SECTION, mockSpecSection } from "./mock-spec-section.mjs";
import { prepareTypecheck, sizeOf, typecheckRows } from "./typecheck.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "cg-bench-"));
const node = process.execPath;
const cli = path.join(root, "generators/dist/cli.js");
const ots = path.join(root, "node_modules/openapi-typescript/bin/cli.js");
const github = path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
const specs = ["core", "ads-audiences", "ads-campaigns"].map((n) => path.join(root, "spec", `${n}.yaml`)).filter(existsSync);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Edits per spec in the incremental rows, each timed in one process and in a fresh one. */
const INCREMENTAL_EDITS = 5;

const argv = process.argv.slice(2);
const only = argv
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const note = argv.find((a) => a.startsWith("--note="))?.slice("--note=".length) ?? "";
const parts = new Set(only ?? ["table", "peers", "mock", ...(argv.includes("--profile") ? ["profile"] : [])]);
for (const p of parts) if (!["table", "peers", "profile", "mock"].includes(p)) throw new Error(`unknown part "${p}" (--only=peers, --only=profile or --only=mock)`);
const table = parts.has("table");
const peers = parts.has("peers");

const bench = (label, args, runs = RUNS, setup, options = {}) => benchRow(label, args, { runs, setup, cwd: root, ...options });
const versionOf = (pkg) => JSON.parse(readFileSync(path.join(root, "node_modules", pkg, "package.json"), "utf8")).version;

/** hey-api, one process generating `jobs` ({ input, output }) in its own temp folder, as a benchRounds command (after one offline check). */
function heyapiRow(label, jobs, cwd) {
  checkHeyapiOffline(root, jobs, cwd);
  const { args, env } = heyapiCommand(root, jobs, cwd);
  return { label, args, cwd, env };
}
const keyOf = (spec) => (spec === github ? "github" : path.basename(spec, ".yaml"));

const rows = [];
const pairs = [];
const perSpec = [];
if (table || peers) {
  for (const spec of [...specs, github]) {
    const name = spec === github ? "GitHub REST (13 MB JSON)" : path.relative(root, spec);
    const runs = spec === github ? Math.min(RUNS, 3) : RUNS;
    const key = keyOf(spec);
    // One output folder per spec: the type-check below reads GitHub's. Cold means an empty content
    // cache (compiled validator units, formatted pieces): each run starts from a deleted one.
    const cache = path.join(tmp, `cache-${key}`);
    const genArgs = [node, cli, "generate", spec, "--out", path.join(tmp, `pkg-${key}`), "--force", "--cache-dir", cache, "-q"];
    // Interleaved (benchRounds): each round runs every row once, so the ratios compare like minutes.
    // The warm row comes right after the cold one and reuses the cache it left.
    const commands = [
      table ? { key: "ours", label: `types stage: contractgen — ${name}`, args: [node, path.join(root, "scripts/bench/types-stage.mjs"), spec, path.join(tmp, "types.ts")], cwd: root } : undefined,
      { key: "theirs", label: `types: openapi-typescript CLI — ${name}`, args: [node, ots, spec, "-o", path.join(tmp, "ots.ts")], cwd: root },
      peers
        ? { key: "hey", ...heyapiRow(`client + types: @hey-api/openapi-ts CLI — ${name}`, [{ input: spec, output: path.join(tmp, `heyapi-${key}`, "out") }], path.join(tmp, `heyapi-${key}`)) }
        : undefined,
      { key: "full", label: `all artifacts, cold: contractgen generate --force — ${name}`, args: genArgs, cwd: root, setup: () => rmSync(cache, { recursive: true, force: true }) },
      table ? { key: "warm", label: `all artifacts, warm cache: contractgen generate --force — ${name}`, args: genArgs, cwd: root } : undefined,
    ].filter(Boolean);
    const measured = Object.fromEntries(benchRounds(commands, runs).map((row, i) => [commands[i].key, row]));
    const { ours, theirs, hey, full, warm } = measured;
    rows.push(...[ours, theirs, hey, full, warm].filter(Boolean));
    if (ours) pairs.push({ name, ratio: ours.wall / theirs.wall });
    perSpec.push({ name, github: spec === github, full, heyapi: hey, ots: theirs });
  }
}

// Project-level runs, in a copy of the workspace layout so the committed packages stay untouched.
let fullRegen;
let heyThree;
let noop;
if (table || peers) {
  const work = mkdtempSync(path.join(os.tmpdir(), "cg-bench-ws-"));
  spawnSync("cp", ["-r", path.join(root, "spec"), path.join(work, "spec")]);
  const projectArgs = [node, cli, "generate", "--spec-dir", path.join(work, "spec"), "--packages-dir", path.join(work, "packages"), "--cache-dir", path.join(work, ".cache"), "-q"];
  // Interleaved with hey-api's run of the three specs (benchRounds), the pair the target compares.
  const commands = [
    {
      label: "full regeneration of the three specs, cold (generate --force)",
      args: [...projectArgs, "--force"],
      cwd: root,
      setup: () => rmSync(path.join(work, ".cache", "content"), { recursive: true, force: true }),
    },
    ...(peers
      ? [
          heyapiRow(
            "client + types: @hey-api/openapi-ts CLI — the three specs, one process",
            specs.map((spec) => ({ input: spec, output: path.join(tmp, "heyapi-three", keyOf(spec)) })),
            path.join(tmp, "heyapi-three"),
          ),
        ]
      : []),
  ];
  [fullRegen, heyThree] = benchRounds(commands, RUNS);
  noop = bench("no-op generate (nothing changed)", projectArgs, RUNS);
  rows.push(fullRegen, noop);
}

let peersText;
if (peers) {
  // The three specs as a project: hey-api's one process with a job per spec (measured above, interleaved).
  rows.push(heyThree);
  const sum = (rs) => ({ wall: rs.reduce((a, r) => a + r.wall, 0), mem: Math.max(...rs.map((r) => r.mem)), load: rs.flatMap((r) => r.load) });
  const three = { full: fullRegen, heyapi: heyThree, ots: sum(perSpec.filter((p) => !p.github).map((p) => p.ots)) };

  // Type-check each generator's GitHub output, after every generation row (the link to the
  // workspace's node_modules goes into contractgen's output folder).
  const tcRuns = Math.min(RUNS, 3);
  const cgSrc = path.join(tmp, "pkg-github", "src");
  const heySrc = path.join(tmp, "heyapi-github", "out");
  const cgCompiled = path.join(tmp, "pkg-github", "compiled");
  const cgDeclarations = ["types.d.ts", "client.types.d.ts", "server.types.d.ts"];
  const [tcContractgen, tcHeyapi, tcContractgenClient, tcDeclarations] = typecheckRows(
    root,
    [
      ["tsc --noEmit: contractgen package — GitHub REST", prepareTypecheck(root, path.join(tmp, "tc-contractgen"), cgSrc, "NodeNext")],
      ["tsc --noEmit: @hey-api/openapi-ts output — GitHub REST", prepareTypecheck(root, path.join(tmp, "tc-heyapi"), heySrc, "bundler")],
      // Nearest to hey-api's client and types: the client subpath and what it imports (which, through
      // problems.ts, includes the validators today).
      ["tsc --noEmit: contractgen src/client.ts and its imports — GitHub", prepareTypecheck(root, path.join(tmp, "tc-contractgen-client"), cgSrc, "NodeNext", ["client.ts"])],
      // The declaration files the package's types ship in, checked (skipLibCheck off): what a
      // consumer's skipLibCheck build no longer checks, and contractgen's own tests do.
      [
        "tsc --noEmit: contractgen's declaration files, skipLibCheck off — GitHub",
        prepareTypecheck(root, path.join(tmp, "tc-contractgen-declarations"), cgCompiled, "NodeNext", cgDeclarations, { skipLibCheck: false }),
      ],
    ],
    tcRuns,
  );
  const tc = { contractgen: tcContractgen, heyapi: tcHeyapi, contractgenClient: tcContractgenClient, contractgenDeclarations: tcDeclarations };
  const declared = sizeOf(cgCompiled, (name) => cgDeclarations.includes(name));
  const sources = sizeOf(cgSrc);
  tc.contractgen.size = { files: sources.files + declared.files, bytes: sources.bytes + declared.bytes };
  tc.contractgenDeclarations.size = declared;
  tc.heyapi.size = sizeOf(heySrc);
  peersText = peersSection({
    perSpec,
    three,
    noop,
    typecheck: tc,
    versions: { heyapi: heyapiVersion(root), heyapiEngine: heyapiEngine(root), ots: versionOf("openapi-typescript") },
    tsVersion: versionOf("typescript"),
    cores: os.cpus().length,
    note,
  });
}

/** Every other row of the bench (validators, client, mock server, scaffold) and the main table. */
function tableLines() {
  // Validators: import time of the precompiled module vs compiling the same schemas at start-up.
  function timed(args) {
    const r = spawnSync(node, args, { cwd: root, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed:\n${r.stderr}`);
    return Number(r.stdout);
  }
  const validatorRows = [];
  for (const spec of specs) {
    const name = path.basename(spec, ".yaml");
    const imported = median(Array.from({ length: RUNS }, () => timed([path.join(root, "scripts/bench/validators-import.mjs"), name])));
    const compiled = median(Array.from({ length: RUNS }, () => timed([path.join(root, "scripts/bench/validators-compile.mjs"), spec])));
    validatorRows.push({ name, imported, compiled });
    process.stderr.write(`validators ${name.padEnd(16)} import ${imported.toFixed(1)} ms  vs  ajv compile at start-up ${compiled.toFixed(1)} ms\n`);
  }
  const tp = JSON.parse(spawnSync(node, [path.join(root, "scripts/bench/validators-throughput.mjs")], { cwd: root, encoding: "utf8" }).stdout);
  process.stderr.write(
    `validations/s Product ${tp.product.standalone.toFixed(0)} vs ${tp.product.runtime.toFixed(0)}; 25-product batch ${tp.batch.standalone.toFixed(0)} vs ${tp.batch.runtime.toFixed(0)}\n`,
  );
  const pct = (a, b) => `${(((a - b) / b) * 100).toFixed(1)}%`;
  // The pattern engine (RE2) against plain RegExp in the same compiled modules of GitHub's package.
  const patternsRun = spawnSync(node, [path.join(root, "scripts/bench/validators-patterns.mjs")], { cwd: root, encoding: "utf8", timeout: 900_000 });
  if (patternsRun.status !== 0) throw new Error(`pattern engine bench failed:\n${patternsRun.stderr}`);
  const pe = JSON.parse(patternsRun.stdout);
  process.stderr.write(
    `GitHub validations/s RE2 ${pe.all.re2.toFixed(0)} vs RegExp ${pe.all.regexp.toFixed(0)}; with a pattern ${pe.withPattern.re2.toFixed(0)} vs ${pe.withPattern.regexp.toFixed(0)}\n`,
  );

  // Client overhead per call against a bare fetch on loopback (interleaved rounds, median).
  const overhead = JSON.parse(spawnSync(node, [path.join(root, "scripts/bench/client-overhead.mjs")], { cwd: root, encoding: "utf8" }).stdout);
  process.stderr.write(`client call ${overhead.clientUs.toFixed(0)} µs vs bare fetch ${overhead.bareFetchUs.toFixed(0)} µs\n`);

  // Mock server: start-up and throughput beside Prism and bare Fastify.
  const mockRun = spawnSync(node, [path.join(root, "scripts/bench/mock.mjs")], { cwd: root, encoding: "utf8", timeout: 600_000 });
  if (mockRun.status !== 0) throw new Error(`mock bench failed:\n${mockRun.stderr}`);
  const mock = JSON.parse(mockRun.stdout);
  for (const r of mock.rows) process.stderr.write(`${r.name}: ${r.kind === "startup" ? `${r.ms.toFixed(0)} ms` : `${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`}\n`);
  const bare = mock.rows.find((r) => r.name.startsWith("bare Fastify"));

  // Scaffold: ts-morph on GitHub's 1,223 operations (details in docs/benchmarks-scaffold.md).
  const scaffoldRun = spawnSync(node, [path.join(root, "scripts/bench/scaffold.mjs")], { cwd: root, encoding: "utf8", timeout: 600_000 });
  if (scaffoldRun.status !== 0) throw new Error(`scaffold bench failed:\n${scaffoldRun.stderr}`);
  const scaffold = JSON.parse(scaffoldRun.stdout);

  // Regeneration after a one-schema change, in one process as --watch does and in a fresh process,
  // each checked byte for byte against a cold run (scripts/bench/incremental.mjs).
  const incremental = ["core", "github"].map((which) => {
    // Five edits: the first after the cold run takes the incremental paths' start-up (their code
    // not yet optimized), and three left a median resting on it or the next.
    const r = spawnSync(node, [path.join(root, "scripts/bench/incremental.mjs"), which, String(INCREMENTAL_EDITS)], { cwd: root, encoding: "utf8", timeout: 1_800_000 });
    if (r.status !== 0) throw new Error(`incremental bench (${which}) failed:\n${r.stderr}${r.stdout}`);
    const result = JSON.parse(r.stdout);
    process.stderr.write(
      `incremental ${which}: in process ${result.incrementalInProcessMs.median} ms, fresh process ${result.incrementalFreshProcessMs.median} ms, identical ${result.byteIdenticalToCold.join(",")}\n`,
    );
    return result;
  });

  const lines = [
    "# Benchmarks",
    "",
    `Measured by \`npm run bench\` (scripts/bench/run.mjs) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}.`,
    "Wall time is the median of the runs; memory is the peak resident set of the slowest process.",
    "Each row is a whole process, start-up included, as a user runs it.",
    "",
    "| case | median wall (s) | peak RSS (MiB) | runs |",
    "| --- | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.label} | ${r.wall.toFixed(2)} | ${r.mem.toFixed(0)} | ${r.runs} |`),
    "",
    "## Ratios",
    "",
    "| spec | contractgen types stage ÷ openapi-typescript | target |",
    "| --- | ---: | --- |",
    ...pairs.map((p) => `| ${p.name} | ${p.ratio.toFixed(2)}× | ≤ 1.20× on GitHub |`),
    "",
    `Targets: no-op under 0.3 s (measured ${noop.wall.toFixed(2)} s); cold regeneration of the three specs under 3 s (measured ${fullRegen.wall.toFixed(2)} s).`,
    "",
    "## Incremental regeneration",
    "",
    "After adding one property to one schema (`simple-user` in GitHub's description, the first schema of spec/common/core-objects.yaml for core), median of " +
      INCREMENTAL_EDITS +
      " edits made one after another (each edit's time in brackets, in order: the first follows the cold run). In one process is what `contractgen generate --watch` does (modules loaded, content caches in memory, the kept worker diffing the release); a fresh process reads the caches from disk. Every result is compared byte for byte with a cold run (empty cache) of the same edited spec over the same previous output. Targets: GitHub ≤ 3 s, core ≤ 0.5 s.",
    "",
    "| spec | in one process (ms) | fresh process (ms) | byte-identical to cold | slowest stages in one process (ms) |",
    "| --- | ---: | ---: | --- | --- |",
    ...incremental.map(
      (r) =>
        `| ${r.spec} | ${r.incrementalInProcessMs.median} (${r.incrementalInProcessMs.all.join(", ")}) | ${r.incrementalFreshProcessMs.median} (${r.incrementalFreshProcessMs.all.join(", ")}) | ${r.byteIdenticalToCold.every(Boolean) ? "yes" : "NO"} (${r.byteIdenticalToCold.length} of ${r.byteIdenticalToCold.length}) | ${Object.entries(
          r.stagesOfLastInProcessRun,
        )
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")} |`,
    ),
    "",
    "## Validators",
    "",
    "Import time of each package's precompiled validators, in a fresh process, against loading ajv and compiling the same named schemas at start-up (median of the runs). Target: core under 50 ms.",
    "",
    "| package | import precompiled (ms) | ajv compile at start-up (ms) |",
    "| --- | ---: | ---: |",
    ...validatorRows.map((v) => `| ${v.name} | ${v.imported.toFixed(1)} | ${v.compiled.toFixed(1)} |`),
    "",
    "Validations per second (median of 7 alternating rounds of 400 ms), precompiled standalone code against ajv compiling the same schema at run time with the same options (allErrors, formats, x-rules keyword). They should match within 10%.",
    "",
    "| input | precompiled (/s) | ajv at run time (/s) | difference |",
    "| --- | ---: | ---: | ---: |",
    `| one Product (ProductInput) | ${tp.product.standalone.toFixed(0)} | ${tp.product.runtime.toFixed(0)} | ${pct(tp.product.standalone, tp.product.runtime)} |`,
    `| 25-product batch (ProductBatchRequest) | ${tp.batch.standalone.toFixed(0)} | ${tp.batch.runtime.toFixed(0)} | ${pct(tp.batch.standalone, tp.batch.runtime)} |`,
    "",
    "Pattern engine: GitHub's precompiled validators as generated (contract patterns on RE2, `@contractgen/runtime/pattern`, linear time) against the same modules calling plain `RegExp` (scripts/bench/validators-patterns.mjs), on one mock value per component schema, median of 11 alternating rounds of at least 300 ms after two warm-up rounds. RE2 is the price of a bounded worst case (docs/security.md).",
    "",
    "| values | RE2 (/s) | RegExp (/s) | difference |",
    "| --- | ---: | ---: | ---: |",
    `| mock values of every component schema (${pe.all.values}) | ${pe.all.re2.toFixed(0)} | ${pe.all.regexp.toFixed(0)} | ${pct(pe.all.re2, pe.all.regexp)} |`,
    `| those whose validation runs a pattern (${pe.withPattern.values}, ${pe.withPattern.patternTests} pattern tests) | ${pe.withPattern.re2.toFixed(0)} | ${pe.withPattern.regexp.toFixed(0)} | ${pct(pe.withPattern.re2, pe.withPattern.regexp)} |`,
    "",
    "## Client",
    "",
    "Median time per sequential call on loopback (15 interleaved rounds of 300 calls), the generated client's `createStreamLink` against a bare `fetch` of the same request. Target: within 10%.",
    "",
    "| call | µs per call |",
    "| --- | ---: |",
    `| bare fetch | ${overhead.bareFetchUs.toFixed(0)} |`,
    `| generated client (bearer, default options) | ${overhead.clientUs.toFixed(0)} (${pct(overhead.clientUs, overhead.bareFetchUs)}) |`,
    "",
    "## Mock server",
    "",
    `Loopback, autocannon with ${mock.connections} connections for ${mock.duration} s per row. Targets: at least half of bare Fastify's throughput on a validated route; start-up under 0.5 s for the three specs.`,
    "",
    "| case | req/s (mean) | p99 latency (ms) | × bare Fastify |",
    "| --- | ---: | ---: | ---: |",
    ...mock.rows.filter((r) => r.kind === "load").map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${(r.rps / bare.rps).toFixed(2)} |`),
    "",
    "| start-up | ms |",
    "| --- | ---: |",
    ...mock.rows.filter((r) => r.kind === "startup").map((r) => `| ${r.name} | ${r.ms.toFixed(0)} |`),
    "",
    "## Scaffold",
    "",
    `contractgen scaffold's ts-morph work on GitHub's ${scaffold.operations} operations (median of ${scaffold.runs}; see docs/benchmarks-scaffold.md): fresh ${scaffold.freshMs.toFixed(0)} ms, re-scaffold unchanged ${scaffold.noopMs.toFixed(0)} ms, after a change (${scaffold.added} added, ${scaffold.stale} stale) ${scaffold.changeMs.toFixed(0)} ms.`,
    "",
  ];
  return lines;
}

/** `contractgen mock --spec` beside Prism and bare Fastify, as its section's text. */
function mockSpecText() {
  settle();
  const rounds = process.env.BENCH_MOCK_ROUNDS ?? "5";
  const docs = process.env.BENCH_MOCK_DOCS ? [`--docs=${process.env.BENCH_MOCK_DOCS}`] : [];
  const r = spawnSync(node, [path.join(root, "scripts/bench/mock-spec.mjs"), `--rounds=${rounds}`, ...docs], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 7_200_000 });
  if (r.status !== 0) throw new Error(`mock --spec bench failed (exit ${r.status})`);
  const git = (args) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout.trim();
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  return mockSpecSection(JSON.parse(r.stdout), {
    command: `${rounds !== "5" ? `BENCH_MOCK_ROUNDS=${rounds} ` : ""}${process.env.BENCH_LOAD_SECONDS ? `BENCH_LOAD_SECONDS=${process.env.BENCH_LOAD_SECONDS} ` : ""}${docs.length > 0 ? `BENCH_MOCK_DOCS=${process.env.BENCH_MOCK_DOCS} ` : ""}npm run bench -- --only=mock${note ? " --note=…" : ""}`,
    date: new Date().toISOString().slice(0, 10),
    commit: `${git(["rev-parse", "--short", "HEAD"])}${dirty ? " + uncommitted changes" : ""}`,
    note,
  });
}

// A run replaces what it measured. The hand-written "Work in progress" section (figures of work
// not yet in this table, with how they were measured) is kept at the end, and so is the profile
// when this run did not profile: regenerating the table must not drop them.
const target = path.join(root, "docs/benchmarks.md");
const previous = existsSync(target) ? readFileSync(target, "utf8") : "";
const profiled = parts.has("profile") ? profileSection(profileGithub(root, tmp), { note }) : undefined;
const peersUpdate = peersText ? [{ key: PEERS_SECTION, text: peersText }] : [];
const profileUpdate = profiled ? [{ key: PROFILE_SECTION, text: profiled }] : [];
const mocked = parts.has("mock") ? mockSpecText() : undefined;
// The mock section follows the table's own "Mock server" section.
const mockUpdate = [{ key: MOCK_SPEC_SECTION, text: mocked ?? pickSections(previous, [MOCK_SPEC_SECTION])[0]?.text ?? "" }].filter((u) => u.text !== "");
const afterMockServer = { before: ["Scaffold", PROFILE_SECTION, "Work in progress"] };
// The Peers section follows Ratios; the profile and Work in progress close the document.
const afterRatios = { before: ["Validators", "Client", "Mock server", "Scaffold", PROFILE_SECTION, "Work in progress"] };
let doc;
if (table) {
  const kept = pickSections(previous, [...(profiled ? [] : [PROFILE_SECTION]), "Work in progress"]).map((k) => ({ key: k.heading, text: k.text }));
  doc = upsertSections(upsertSections(upsertSections(tableLines().join("\n"), peersUpdate, afterRatios), mockUpdate, afterMockServer), [...profileUpdate, ...kept]);
} else {
  doc = upsertSections(upsertSections(upsertSections(previous || "# Benchmarks\n", peersUpdate, afterRatios), mockUpdate, afterMockServer), profileUpdate);
}
writeFileSync(target, doc);
process.stderr.write(`wrote docs/benchmarks.md (${[...parts].join(", ")})\n`);
