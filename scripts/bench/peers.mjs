// The "Peers" section of docs/benchmarks.md: contractgen's whole output beside
// @hey-api/openapi-ts (client SDK and types) and openapi-typescript (types), the issue-13 targets,
// and how long the TypeScript compiler takes over each generator's output. Figures come from
// run.mjs; this file only lays them out.

export const PEERS_SECTION = "Peers";

const cell = (r) => (r ? `${r.wall.toFixed(2)} s, ${r.mem.toFixed(0)} MiB` : "");
const ratio = (a, b) => (a && b ? `${(a.wall / b.wall).toFixed(2)}×` : "");
const verdict = (ok) => (ok ? "met" : "**not met**");
const loads = (rows) => {
  const all = rows.filter(Boolean).flatMap((r) => r.load);
  return `${Math.min(...all)}–${Math.max(...all)}`;
};

/**
 * perSpec: [{ name, full, heyapi, ots }] (GitHub last); three: { full, heyapi, ots } for the three
 * specs together; noop: the no-op row; typecheck: { contractgen, heyapi } rows with `size`.
 */
export function peersSection({ perSpec, three, noop, typecheck, versions, tsVersion, cores, note = "" }) {
  const github = perSpec.find((p) => p.github);
  const all = [...perSpec.flatMap((p) => [p.full, p.heyapi, p.ots]), three.full, three.heyapi, noop];
  // An absolute time target means nothing on an oversubscribed machine; ratios within one run and
  // peak memory still do.
  const busy = (rows) => Math.max(...rows.flatMap((r) => r.load)) > cores;
  const absolute = (row, ok) => (busy([row]) ? `not judged here (load average ${Math.max(...row.load)} on ${cores} cores)` : verdict(ok));
  const lines = [
    `## ${PEERS_SECTION}: @hey-api/openapi-ts and openapi-typescript`,
    "",
    ...(note ? [note, ""] : []),
    `Each cell is a whole process (start-up included): median wall over the runs, peak RSS of the largest run. The rows of one spec (and the two three-spec rows) are measured interleaved, each round running every row once, so a ratio compares the same minutes of this shared machine, whose speed drifts by up to 30% over minutes; each group of rows starts once the one-minute load average left by the previous group is down to 1 (or after 75 s, \`settle\` in scripts/bench/measure.mjs). @hey-api/openapi-ts ${versions.heyapi} (it declares node ${versions.heyapiEngine}; run here on ${process.version}) runs its CLI (\`bin/run.js\`, which starts a second node process) with scripts/bench/openapi-ts.config.mjs: its default plugins \`@hey-api/typescript\`, \`@hey-api/sdk\` and \`@hey-api/client-fetch\` (types, SDK functions, fetch client), no formatter, no tsconfig lookup, in a temp folder, after one checking run with every network call refused. openapi-typescript ${versions.ots} writes types only. contractgen writes every artifact (types, client, validators, server, mocks, MCP, …) and formats them. Runs: ${github?.full?.runs ?? "?"} for GitHub, ${perSpec[0]?.full?.runs ?? "?"} for the others; one-minute load average ${loads(all)} over these rows.`,
    "",
    "| spec | contractgen all artifacts | @hey-api/openapi-ts client + types | openapi-typescript types | contractgen ÷ hey-api | contractgen ÷ openapi-typescript |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...perSpec.map((p) => `| ${p.name} | ${cell(p.full)} | ${cell(p.heyapi)} | ${cell(p.ots)} | ${ratio(p.full, p.heyapi)} | ${ratio(p.full, p.ots)} |`),
    `| the three specs together (contractgen: one \`generate --force\` of the project; hey-api: one process, three jobs; openapi-typescript: three processes, summed) | ${cell(three.full)} | ${cell(three.heyapi)} | ${cell(three.ots)} | ${ratio(three.full, three.heyapi)} | ${ratio(three.full, three.ots)} |`,
    "",
  ];
  if (github?.full && github.heyapi && github.ots) {
    const g = github.full;
    lines.push(
      "Targets (issue 13):",
      "",
      `- GitHub, all artifacts ≤ 1.0× hey-api: ${ratio(g, github.heyapi)}, ${verdict(g.wall <= github.heyapi.wall)}.`,
      `- GitHub, all artifacts ≤ 2× openapi-typescript: ${ratio(g, github.ots)}, ${verdict(g.wall <= 2 * github.ots.wall)}.`,
      `- GitHub, peak RSS < 1 GB: ${g.mem.toFixed(0)} MiB, ${verdict(g.mem < 1024)}.`,
      `- Three specs cold together ≤ 3 s: ${three.full.wall.toFixed(2)} s, ${absolute(three.full, three.full.wall <= 3)}.`,
      `- No-op < 0.3 s: ${noop.wall.toFixed(2)} s, ${absolute(noop, noop.wall < 0.3)}.`,
      "",
    );
  }
  if (typecheck) {
    const { contractgen: c, heyapi: h, contractgenClient: cc, contractgenDeclarations: cd } = typecheck;
    const mb = (r) => (r.size.bytes / 1e6).toFixed(1);
    lines.push(
      "### Type-check of the generated output (GitHub REST)",
      "",
      `\`tsc --noEmit -p <tsconfig>\` with the workspace's TypeScript ${tsVersion} over each generator's GitHub output, as written by the rows above, median of ${c.runs}, the checks interleaved round by round (load ${loads([c, h])}). Both tsconfigs hold the same options (strict, skipLibCheck, target ES2022, lib ES2023 + DOM, no ambient @types) and differ only in module resolution, as the outputs need: contractgen's package NodeNext (\`.js\` specifiers, @contractgen/runtime through its exports map, resolved through a node_modules link to the workspace's), hey-api's output bundler (extensionless specifiers). contractgen's types, its client's (options, arguments, results, the client's interface) and its server's (inputs, replies, the handlers' interface) ship as declaration files, \`compiled/types.d.ts\`, \`compiled/client.types.d.ts\` and \`compiled/server.types.d.ts\`, which \`src/types.ts\`, \`src/client.ts\` and \`src/server.ts\` re-export; skipLibCheck skips checking them, so the package's build checks only what its code uses of them; hey-api's types are a \`.ts\` file, checked in full. The last row is the cost of checking those declaration files themselves (skipLibCheck off), which contractgen's tests pay once (test/generator/types-declarations.test.ts) rather than every consumer's build. Written by scripts/bench/typecheck.mjs.`,
      "",
      "| output | TypeScript files (.ts, .d.ts) | size (MB) | median wall (s) | peak RSS (MiB) | type errors |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      `| contractgen package, all artifacts (src/ and its declaration files in compiled/) | ${c.size.files} | ${mb(c)} | ${c.wall.toFixed(2)} | ${c.mem.toFixed(0)} | ${c.errors} |`,
      ...(cc
        ? [`| contractgen package, \`src/client.ts\` and what it imports (types, problems, and through problems.ts the validators) | | | ${cc.wall.toFixed(2)} | ${cc.mem.toFixed(0)} | ${cc.errors} |`]
        : []),
      `| @hey-api/openapi-ts output (client + types) | ${h.size.files} | ${mb(h)} | ${h.wall.toFixed(2)} | ${h.mem.toFixed(0)} | ${h.errors} |`,
      ...(cd
        ? [
            `| contractgen's declaration files alone, skipLibCheck off (checked by its tests, not by a consumer's build) | ${cd.size.files} | ${mb(cd)} | ${cd.wall.toFixed(2)} | ${cd.mem.toFixed(0)} | ${cd.errors} |`,
          ]
        : []),
      "",
      `contractgen ÷ hey-api: ${ratio(c, h)} wall, ${(c.mem / h.mem).toFixed(2)}× peak RSS. Target: contractgen's output type-checks at least as fast as hey-api's (≤ 1.0×): ${verdict(c.wall <= h.wall)}.` +
        (cc ? ` The client subpath alone (the part nearest to hey-api's output): ${ratio(cc, h)} wall, ${(cc.mem / h.mem).toFixed(2)}× peak RSS.` : ""),
      "",
    );
  }
  return lines.join("\n");
}
