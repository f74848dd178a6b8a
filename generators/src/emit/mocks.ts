import type { ApiModel, Operation, Response } from "../model/ir.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { laidOutInterface, literal, stringLiteral, ts, typeKey, type Code } from "./ts.js";
import { mediaKind } from "./validators/index.js";
import { toJsonSchema } from "./validators/json-schema.js";
import { SCHEMA_MAPS } from "../load/schema-keywords.js";
import { mockTable } from "./mock-table.js";

/** What `exampleResponse` and the mock engine need of one response: its first media type, schema and examples, its headers. */
interface ResponsePlan {
  readonly status: string;
  readonly contentType?: string;
  readonly schema?: unknown;
  readonly example?: unknown;
  /** The media's named examples (`examples` map), what `Prefer: example=<name>` picks. */
  readonly examples?: Readonly<Record<string, unknown>>;
  /** Declared response headers with their schemas. */
  readonly headers?: readonly { readonly name: string; readonly required: boolean; readonly schema?: unknown }[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

// Annotations the generator never reads: dropping them keeps large documents small.
const DROPPED = new Set([
  "description",
  "title",
  "$comment",
  "externalDocs",
  "xml",
  "discriminator",
  "deprecated",
  "x-source",
  "x-transitions",
  "x-unspecified",
  "x-added",
  "x-sunset",
  "x-deprecated-at",
  "x-replaced-by",
  "x-removed",
  "x-legacy-values",
  "x-problem-type",
]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "x-rules-schemas"]);
const SCHEMAS = new Set(["items", "not", "if", "then", "else", "contains", "additionalProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"]);

/** A 2020-12 schema without annotations; names in `properties` and values in `enum`/`examples` stay. */
function withoutAnnotations(schema: unknown): unknown {
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObj(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutAnnotations(v)]));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(withoutAnnotations);
    else if (SCHEMAS.has(key)) out[key] = withoutAnnotations(value);
    else out[key] = value;
  }
  return out;
}

/** A schema as the mock-data generator and the conformance suite draw from it. */
export const mockSchemaOf = (schema: unknown): unknown => withoutAnnotations(toJsonSchema(schema));

/** The media a mock answers with: JSON first (the validators check it), else the first listed. */
function preferredContent(r: Response): Response["contents"][number] | undefined {
  return r.contents.find((c) => mediaKind(c.mediaType) === "json") ?? r.contents[0];
}

function responsePlans(op: Operation): ResponsePlan[] {
  return op.responses.map((r) => {
    const headers = r.headers.map((h) => ({ name: h.name, required: h.required, ...(h.schema !== undefined ? { schema: mockSchemaOf(h.schema) } : {}) }));
    const withHeaders = headers.length > 0 ? { headers } : {};
    const c = preferredContent(r);
    if (c === undefined) return { status: r.status, ...withHeaders };
    const named = (c.exampleNames ?? []).flatMap((name, i) => (name === null ? [] : [[name, c.examples[i]] as const]));
    return {
      status: r.status,
      contentType: c.mediaType,
      ...(c.schema !== undefined ? { schema: mockSchemaOf(c.schema) } : {}),
      ...(c.examples.length > 0 ? { example: c.examples[0] } : {}),
      ...(named.length > 0 ? { examples: Object.fromEntries(named) } : {}),
      ...withHeaders,
    };
  });
}

/**
 * The schema document and response table as one JSON string: `JSON.parse` loads large documents
 * faster than an object literal, and tsc need not infer a type for every schema.
 */
/**
 * `compiled/mocks.data.js` and its declarations: the mock data is two JSON strings of several MB
 * for large contracts, so it ships as JavaScript outside \`src/\`, like the compiled validators.
 * TypeScript reads the three declarations instead of scanning the strings in every program that
 * imports the package (GitHub's API: 5 MB, about 0.5 s of tsc's parse time).
 */
function dataModule(model: ApiModel): { readonly js: string; readonly dts: string } {
  const document = { components: { schemas: Object.fromEntries(model.schemas.map((s) => [s.name, mockSchemaOf(s.schema)])) } };
  const responses = Object.fromEntries(model.operations.map((op) => [op.id, responsePlans(op)]));
  const table = mockTable(model);
  const js = ts`export const schemaTypeNames = ${literal(model.schemas.map((s) => [s.name, s.typeName]))};

// Parsed on first use: importing the package barrel costs nothing until mocks are asked for.
let parsedDocument;
let parsedResponses;
let parsedTable;

export function mockDocument() {
  return (parsedDocument ??= JSON.parse(${stringLiteral(JSON.stringify(document))}));
}

export function responsePlans() {
  return (parsedResponses ??= JSON.parse(${stringLiteral(JSON.stringify(responses))}));
}

export function mockTable() {
  return (parsedTable ??= JSON.parse(${stringLiteral(JSON.stringify(table))}));
}
`;
  const dts = ts`import type { MockDocument, MockSchema } from "@contractgen/runtime/mock-data";
import type { MockTable, ResponsePlan } from "@contractgen/runtime/mock-engine";

export type { ResponsePlan };

/** Each component schema's name and the name of its type (and of its validator and mock factory). */
export declare const schemaTypeNames: readonly (readonly [string, string])[];

/** The contract's schemas in JSON Schema 2020-12 as the validators compile them, less annotations. */
export declare function mockDocument(): MockDocument;

/** Per operation, its responses in contract order. */
export declare function responsePlans(): Readonly<Record<string, readonly ResponsePlan[]>>;

/** The collections the mock keeps (from the contract's relations), each operation's part in one, the lists' paging and filters. */
export declare function mockTable(): MockTable;
`;
  return { js: tsHeader(model) + js.text, dts: tsHeader(model) + dts.text };
}

/**
 * A schema name as a key of `components["schemas"]`: openapi-typescript writes names that are
 * canonical numbers (`403`) as numeric keys, so `keyof` holds the number, not the string.
 */
function schemaKey(name: string): Code {
  return /^(0|[1-9]\d{0,14})$/.test(name) ? ts`${Number(name)}` : stringLiteral(name);
}

function wrapper(model: ApiModel): { readonly contents: string; readonly laidOut: Set<string> } {
  const factories = model.schemas.map((s) => ts`  ${typeKey(s.typeName)}: (seed?: number) => Schemas[${schemaKey(s.name)}];`);
  // The factories' type, one member per schema (most of this module for a large contract), laid
  // out here as prettier would when its lines allow (ts-layout.ts), else formatted.
  const laidOut = new Set<string>();
  const table = laidOutInterface("The type of `mockSchemas`: one seeded factory per named schema of the contract.", "MockSchemas", factories, laidOut);
  const contents =
    tsHeader(model) +
    ts`import { createMockGenerator, type MockGenerator, type MockSchema } from "@contractgen/runtime/mock-data";
import { createMockEngine, type MockEngine, type MockEngineOptions } from "@contractgen/runtime/mock-engine";
import type { components } from "./types.js";
import { schemaValidators, validateResponse, type OperationId } from "./validators.js";
import { mockDocument, mockTable, responsePlans, schemaTypeNames, type ResponsePlan } from "../compiled/mocks.data.js";

export type { MockEngine, MockEngineOptions } from "@contractgen/runtime/mock-engine";

type Schemas = components["schemas"];

// Schema name → key of its precompiled validator (a Map: schema names may be \`__proto__\`).
const validatorKeys = new Map<string, string>(schemaTypeNames);

let created: MockGenerator | undefined;
const generator = (): MockGenerator =>
  (created ??= createMockGenerator({
    root: mockDocument(),
    validate: (name, value) => {
      const key = validatorKeys.get(name);
      const validate = key === undefined ? undefined : (schemaValidators as unknown as Readonly<Record<string, (data: unknown) => boolean>>)[key];
      return validate === undefined || validate(value);
    },
  }));

/**
 * A mock value of a named schema of the contract. Deterministic: the same seed gives the same value
 * on every machine, and every value passes the schema's precompiled validator.
 * @param seed any number; calls without one use 1
 */
export function mockSchema<K extends keyof Schemas>(name: K, seed?: number): Schemas[K] {
  return generator().forSchema(String(name), seed) as Schemas[K];
}

/**
 * A mock value of any schema over the contract's document (\`$ref\`s to its components resolve):
 * what the conformance suite draws requests from.
 * @param seed any number; calls without one use 1
 */
export function mockValue(schema: MockSchema, seed?: number): unknown {
  return generator().generate(schema, seed);
}

${table}
/**
 * One seeded factory per schema, by type name. Made from the schema/type name pairs and typed once
 * here: TypeScript reads one signature per schema instead of checking a function per schema.
 */
export const mockSchemas = Object.fromEntries(
  schemaTypeNames.map(([name, typeName]) => [typeName, (seed?: number): unknown => generator().forSchema(name, seed)]),
) as unknown as MockSchemas;

/** A response as a mock server would send it. */
export interface ExampleResponse {
  readonly status: number;
  /** Media type of the body; undefined when the response has no content. */
  readonly contentType: string | undefined;
  readonly body: unknown;
}

function planFor(operationId: OperationId, status: number | string | undefined): ResponsePlan {
  const table = responsePlans();
  const plans = Object.prototype.hasOwnProperty.call(table, operationId) ? table[operationId] : undefined;
  if (plans === undefined || plans.length === 0) throw new RangeError(\`unknown operationId or no responses: \${String(operationId)}\`);
  if (status === undefined) return plans.find((p) => p.status.startsWith("2")) ?? (plans[0] as ResponsePlan);
  const code = String(status);
  const found = plans.find((p) => p.status === code) ?? plans.find((p) => p.status === \`\${code[0] ?? ""}XX\`) ?? plans.find((p) => p.status === "default");
  if (found === undefined) throw new RangeError(\`\${String(operationId)} has no \${code} response\`);
  return found;
}

// \`2XX\` answers as 200, \`default\` as 500 unless the caller named the status.
function statusCode(plan: ResponsePlan, asked: number | string | undefined): number {
  if (asked !== undefined && /^\\d{3}$/.test(String(asked))) return Number(asked);
  if (/^\\d{3}$/.test(plan.status)) return Number(plan.status);
  if (/^[1-5]XX$/.test(plan.status)) return Number(plan.status[0]) * 100;
  return 500;
}

/**
 * An example response of an operation: the contract's own example when the response has one, else
 * a generated body that passes \`validateResponse\`. Without \`status\`, the first 2XX response.
 * @param seed seed of a generated body; calls without one use 1
 */
export function exampleResponse(operationId: OperationId, status?: number | string, seed?: number): ExampleResponse {
  const plan = planFor(operationId, status);
  const code = statusCode(plan, status);
  const contentType = plan.contentType;
  const valid = (body: unknown): boolean => validateResponse(operationId, code, contentType, body).valid;
  if (plan.example !== undefined && valid(plan.example)) return { status: code, contentType, body: structuredClone(plan.example) };
  if (plan.schema === undefined) return { status: code, contentType, body: undefined };
  return { status: code, contentType, body: generator().generate(plan.schema, seed, { accept: valid }) };
}

/**
 * The mock of this contract: one handler per operation answering from the contract's examples and
 * seeded data, stateful for the collections the contract implies, with Prism's \`Prefer\`
 * conventions. Serve it with the Fastify plugin (\`contractgen mock --spec\` does) or the MSW
 * handlers of \`./msw\`; every answer validates against the declared response.
 */
export function createMock(options?: MockEngineOptions): MockEngine {
  return createMockEngine(
    {
      plans: responsePlans(),
      table: mockTable(),
      generator: generator(),
      document: mockDocument(),
      validateResponse: (operationId, status, contentType, body) => validateResponse(operationId as OperationId, status, contentType, body),
    },
    options,
  );
}

/** One example response per operation, in contract order. */
export function exampleResponses(seed?: number): (ExampleResponse & { readonly operationId: OperationId })[] {
  return (Object.keys(responsePlans()) as OperationId[]).map((operationId) => ({ operationId, ...exampleResponse(operationId, undefined, seed) }));
}
`.text;
  return { contents, laidOut };
}

/**
 * `./mocks`: deterministic seeded factories per schema (every value passes the precompiled
 * validators) and an example response per operation, over the runtime's mock-data generator.
 */
export const mocksEmitter = defineEmitter({
  name: "mocks",
  modelOnly: true,
  exports: { "./mocks": "mocks" },
  barrel: "namespace",
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  emit({ model }) {
    const data = dataModule(model);
    return [
      { path: "compiled/mocks.data.js", contents: data.js, format: false },
      { path: "compiled/mocks.data.d.ts", contents: data.dts, format: false },
      { path: "src/mocks.ts", ...wrapper(model) },
    ];
  },
});
