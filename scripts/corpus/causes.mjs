// Distinct failure causes of the corpus. Each failing document's error is matched against CAUSES;
// a cause that matches nothing shows up as "unclassified" in the run and in docs/corpus.md, so a new
// kind of failure cannot hide among known ones. FIXED records what the corpus found and what changed.

/** Share of the corpus that must generate and type-check. */
export const TARGET = 0.98;

/**
 * Known causes of failure that are not contractgen's to fix, with the reason. `statuses` lists the
 * run statuses the cause can have: `rejected` is a located error (exit 2) naming the construct.
 */
export const CAUSES = [
  {
    id: "schema-ref-to-non-schema",
    title: "a schema `$ref` that points at a response, parameter or other non-schema component",
    statuses: ["rejected"],
    match: /stands where a schema is expected but points at/,
    reason:
      "The document is invalid: a Schema Object's `$ref` names a Response Object (rev.ai's `CaptionSrt`, rumble.run's `StatusMessage`), which is no schema. contractgen reports the place and the schema the author most likely meant (one of the same name under components/schemas, or the one the component holds).",
  },
  {
    id: "schema-in-type",
    title: "a schema nested inside `type`",
    statuses: ["rejected"],
    match: /^'type' must be a type name/,
    reason:
      "The document is invalid: `type` holds a schema object instead of a type name (codat.io's `Item.definitions.itemType` is `{ type: { type: string, enum: [...] } }`). " +
      "OpenAPI 3.1's own schema cannot check Schema Objects, so contractgen checks the keywords its validators compile and reports the place, instead of guessing what was meant.",
  },
  {
    id: "invalid-keyword-value",
    title: "a JSON Schema keyword with a value of the wrong kind",
    statuses: ["rejected"],
    match: /^'[^']+' (must be|has a value of the wrong kind)/,
    reason: "The document is invalid JSON Schema 2020-12 at the place named (for example `required: true` on a property or a list under `items`); the error says how to write it.",
  },
  {
    id: "mocks-union-too-complex",
    title: "mocks.ts: the schema-name map of a spec with very many schemas is too complex for TypeScript",
    statuses: ["typecheck"],
    match: /^src\/mocks\.ts\(\d+,\d+\): error TS2590/,
    reason:
      "A bug in the mocks emitter (`generators/src/emit/mocks.ts`, outside this work's files; reported to its owner): `new Map<string, keyof typeof schemaValidators>([...])` over thousands of schemas makes TypeScript build a union it refuses (TS2590). Typing the entries array explicitly (or `as const` on the literal) avoids the inference.",
  },
  {
    id: "mocks-numeric-schema-names",
    title: "mocks.ts: schema names that are numbers (`403`, `405`)",
    statuses: ["typecheck"],
    match: /^src\/mocks\.ts\(\d+,\d+\): error TS(2322|2345)/,
    reason:
      'A bug in the mocks emitter (outside this work\'s files; reported to its owner): openapi-typescript writes a schema named `403` as the numeric key `403`, so `keyof components["schemas"]` holds the number and `mockSchema("403")` does not type-check. The factory should pass the name as the key type has it.',
  },
];

/**
 * Causes the corpus found that are fixed in the generator, each with the documents that showed it
 * and the test that keeps it fixed.
 */
export const FIXED = [
  {
    title: "a schema `$ref` to a Response Object (`#/components/responses/StatusMessage` as a response body's schema)",
    found: "rumble.run (internal error, exit 4: the validators' schema document has no #/components/responses/StatusMessage); rev.ai generated, typing three response bodies as the response object",
    fix: "load/load.ts refuses it where it stands, with file:line:col, the pointer and the schema to point at (a `$ref` inside `example`, `enum` or an extension is text and is not judged)",
    test: "test/generator/errors.test.ts › schema-ref-to-response.yaml, schema-ref-to-parameter.yaml",
  },
  {
    title: "`$ref` to a schema outside `components.schemas` (`#/components/parameters/companyId/schema`, `#/components/schemas/Address/definitions/addressType`)",
    found:
      "codat.io/accounting, assess, bank-feeds (internal error: the validators could not resolve the reference); codat.io/banking, commerce, sync-for-commerce, sync-for-expenses (types: `definitions` indexed on a schema type, TS2339/TS2502)",
    fix: "model/normalize.ts copies every such target into `components.schemas` once, under a name made from its location, and points the references there",
    test: "test/corpus/constructs.test.ts › references into other places",
  },
  {
    title: "recursion through an array at the top level of a schema (a JSON-value union)",
    found: "vercel.com `EdgeConfigItemValue` (TS2502: referenced directly or indirectly in its own type annotation)",
    fix: "emit/type-cycles.ts replaces such arrays in openapi-typescript's output with named interfaces (`interface JsonValueArray extends Array<…>`), which TypeScript resolves lazily",
    test: "test/corpus/constructs.test.ts › circular and recursive schemas",
  },
  {
    title: '`type: "null"` beside `oneOf` (a nullable union written the 3.0 way in 3.1)',
    found: "vercel.com `EdgeConfigItemValue`",
    fix: "model/normalize.ts reads it as `anyOf: [null, the union]`: as written it admits no value at all, and openapi-typescript typed it `null & (…)`",
    test: "test/corpus/constructs.test.ts › circular and recursive schemas",
  },
  {
    title: "two parameters with the same name in different places (path `token` and query `token`)",
    found: "trello.com, docusign.net (TS2300: duplicate identifier in the client's argument interface)",
    fix: "emit/client.ts names arguments per location and name (`token`, `token2`) and the operation table maps `token2` back to the query parameter",
    test: "test/corpus/constructs.test.ts › parameters",
  },
  {
    title: "an error-response schema named `ApiError` (or like another name problems.ts declares)",
    found: "lyft.com, azure.com/mediaservices-Assets (TS2395: merged declaration `ApiError`)",
    fix: "emit/problems.ts gives error classes names unique in the module (`ApiError2`)",
    test: "test/corpus/constructs.test.ts › error schemas",
  },
  {
    title: "explicit operationIds renamed when an operation without one would get the same generated name",
    found: "the construct fixture for operations without operationId (a latent bug: the renamed id was also the validators' and server's key)",
    fix: "model/build.ts keeps every explicit operationId and gives generated names a suffix instead",
    test: "test/corpus/constructs.test.ts › operations without operationId",
  },
  {
    title: "a schema with its own `$defs` (3.1 files referenced from the root)",
    found: "the external-files construct fixture: openapi-typescript made `$defs` a required member of the schema's type",
    fix: "emit/types.ts drops a schema's `$defs` from the copy it types (every reference into it now points at a hoisted component)",
    test: "test/corpus/constructs.test.ts › external $ref files",
  },
  {
    title: "a 3.1 schema keyword whose value ajv cannot compile (`type: { … }`)",
    found: "codat.io/accounting (internal error: type must be JSONType)",
    fix: "load/validate-structure.ts checks the compiled keywords of every 3.1 Schema Object against JSON Schema 2020-12 and reports a located error (exit 2)",
    test: "test/corpus/constructs.test.ts › invalid 3.1 schema keywords",
  },
];

/** The known cause of a failed result, or an "unclassified" one built from its error. */
export function classify(result) {
  for (const c of CAUSES) if (c.statuses.includes(result.status) && c.match.test(result.error ?? "")) return { id: c.id, title: c.title, reason: c.reason, known: true };
  const normalized = (result.error ?? "")
    .replace(/\(at [^)]*\)$/, "")
    .replace(/^src\/[^(]+\(\d+,\d+\): /, "")
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, "N")
    .trim();
  return { id: `unclassified ${result.status}: ${normalized.slice(0, 120)}`, title: normalized.slice(0, 160), reason: "not classified yet: a new cause", known: false };
}
