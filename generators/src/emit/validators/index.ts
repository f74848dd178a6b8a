import type { ApiModel, MediaContent, Operation, Parameter } from "../../model/ir.js";
import { deliveryValidation } from "./deliveries.js";
import { validationTables } from "./tables.js";
import { defineEmitter } from "../emitter.js";
import { tsHeader } from "../header.js";
import { laidOutInterface, literal, stringLiteral, ts, typeKey } from "../ts.js";
import type { CompileInput } from "./compile.js";
import { compileAll } from "./compile-pool.js";
import { compileModule } from "./module.js";
import { compiledDeclarations, pointerSegment, splittable, type UnitCopies } from "./units.js";
import { hasPrototypeMemberKeys } from "../prototype-keys.js";
import { NO_CACHE } from "../../write/content-cache.js";
import { applyDiscriminators, directionalViews, toJsonSchema, withRules } from "./json-schema.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** How a media type's payload is validated: as JSON, as a coerced form, or not at all. */
export function mediaKind(mediaType: string): "json" | "form" | "none" {
  const mt = mediaType.split(";")[0]!.trim().toLowerCase();
  if (mt === "application/json" || mt.endsWith("+json") || mt === "text/json") return "json";
  if (mt === "application/x-www-form-urlencoded") return "form";
  return "none";
}

/** Header parameters OpenAPI says to ignore: the transport owns them. */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

export interface Plan {
  /** What the two roots share: the component schemas and their directional views. */
  readonly shared: Obj;
  readonly strictRoot: Obj;
  readonly paramsRoot: Obj;
  readonly strictExports: Map<string, string>;
  readonly paramsExports: Map<string, string>;
  readonly operations: readonly OperationPlan[];
  /** Deliveries (webhooks, callbacks), validated like operations: the payload is the body. */
  readonly deliveries: readonly OperationPlan[];
}

/** What the plan reads of an operation or a delivery. */
type Validated = Pick<Operation, "id" | "parameters" | "requestBody" | "responses" | "rules">;

export interface OperationPlan {
  readonly op: Validated;
  readonly params: string;
  readonly parameters: readonly Parameter[];
  readonly body?: { readonly required: boolean; readonly media: readonly { mediaType: string; ref?: Ref }[] };
  readonly responses: readonly { status: string; media: readonly { mediaType: string; ref?: Ref }[] }[];
}

export interface Ref {
  readonly module: "strict" | "params";
  readonly name: string;
}

/** What the validators emitter compiles for a model: the two modules' roots and exports, and each operation's and delivery's validators. */
export function validationPlan(model: ApiModel): Plan {
  const components = Object.fromEntries(model.schemas.map((s) => [s.name, toJsonSchema(s.schema)]));
  const strictDefs: Obj = {};
  const paramsDefs: Obj = {};
  const strictExports = new Map<string, string>();
  const paramsExports = new Map<string, string>();
  model.schemas.forEach((s, i) => strictExports.set(`s${i}`, `#/components/schemas/${pointerSegment(s.name)}`));

  const add = (kind: "json" | "form", key: string, schema: unknown): Ref => {
    const [defs, exports, module] = kind === "json" ? [strictDefs, strictExports, "strict" as const] : [paramsDefs, paramsExports, "params" as const];
    defs[key] = schema;
    exports.set(key, `#/$defs/${key}`);
    return { module, name: key };
  };
  const mediaRefs = (contents: readonly MediaContent[], prefix: string, bodyRules: readonly unknown[]): { mediaType: string; ref?: Ref }[] =>
    contents.map((c, j) => {
      const kind = mediaKind(c.mediaType);
      if (kind === "none" || c.schema === undefined) return { mediaType: c.mediaType };
      const schema = toJsonSchema(c.schema);
      const withBodyRules = bodyRules.length > 0 && isObj(schema) ? withRules({ allOf: [schema] }, bodyRules) : schema;
      return { mediaType: c.mediaType, ref: add(kind, `${prefix}_${j}`, withBodyRules) };
    });

  const planOne = (op: Validated, prefix: string): OperationPlan => {
    const rulesIn = (where: string): unknown[] => op.rules.filter((r) => (r.in ?? "query") === where);
    const parameters = op.parameters.filter((p) => !(p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())));
    const locations: Obj = {};
    for (const where of ["path", "query", "header", "cookie"] as const) {
      const ps = parameters.filter((p) => p.in === where);
      const key = (p: Parameter): string => (where === "header" ? p.name.toLowerCase() : p.name);
      const properties = Object.fromEntries(ps.map((p) => [key(p), toJsonSchema(p.schema)]));
      const required = ps.filter((p) => p.required).map(key);
      const base = { type: "object", properties, ...(required.length ? { required } : {}) };
      const rules = rulesIn(where);
      // Rules run in a second allOf branch so they see values the first branch already coerced
      // ("true" → true): a rule on the object itself would run before its properties are coerced.
      locations[where] = rules.length > 0 ? { allOf: [base, withRules({}, rules)] } : base;
    }
    const params = add("form", `${prefix}p`, { type: "object", properties: locations }).name;
    const body = op.requestBody ? { required: op.requestBody.required, media: mediaRefs(op.requestBody.contents, `${prefix}b`, rulesIn("body")) } : undefined;
    const responses = op.responses.map((r, k) => ({ status: r.status, media: mediaRefs(r.contents, `${prefix}r${k}`, []) }));
    return { op, params, parameters, ...(body ? { body } : {}), responses };
  };
  const operations = model.operations.map((op, i) => planOne(op, `o${i}`));
  const deliveries = model.deliveries.map((d, i) => planOne(d, `d${i}`));

  applyDiscriminators(components, [...Object.values(strictDefs), ...Object.values(paramsDefs)], model.problemBase ? { problemBase: model.problemBase.default } : {});
  const defsOf = (keyPattern: RegExp): unknown[] => [...Object.entries(strictDefs), ...Object.entries(paramsDefs)].filter(([k]) => keyPattern.test(k)).map(([, v]) => v);
  // A delivery's payload travels from the API like a response (readOnly members present, writeOnly
  // ones may be left out); the receiver's answer travels back like a request.
  const views = directionalViews(components, defsOf(/^(o\d+b|d\d+r\d+)_/), defsOf(/^(o\d+r\d+|d\d+b)_/));
  const shared = { components: { schemas: components }, ...views };
  return {
    shared,
    strictRoot: { ...shared, $defs: strictDefs },
    paramsRoot: { ...shared, $defs: paramsDefs },
    strictExports,
    paramsExports,
    operations,
    deliveries,
  };
}

const COMPILED_HEADER = "/* eslint-disable */\n// ajv standalone output; its types are in the .d.ts beside it.\n";

function wrapper(model: ApiModel, p: Plan): { readonly contents: string; readonly laidOut: Set<string> } {
  const schemaEntries = model.schemas.map((s) => ts`  ${typeKey(s.typeName)}: SchemaValidator<components["schemas"][${stringLiteral(s.name)}]>;`);
  const invalidRequest = invalidRequestOf(model);
  // The table's type, one member per schema (most of this module for a large contract), laid out
  // here as prettier would when its lines allow (ts-layout.ts), else formatted.
  const laidOut = new Set<string>();
  const table = laidOutInterface("The type of `schemaValidators`: one precompiled validator per named schema of the contract.", "SchemaValidators", schemaEntries, laidOut);
  const contents =
    tsHeader(model) +
    ts`import { createValidation, type CompiledError, type OperationValidation } from "@contractgen/runtime/validation";
import type { components } from "./types.js";
import { ${p.deliveries.length > 0 ? ts`deliveryValidators, type DeliveryId, ` : ts``}operationValidators, schemaValidators as compiledSchemaValidators, type OperationId } from "../compiled/validators.tables.js";

/** A precompiled validator that narrows what it accepts. */
export interface SchemaValidator<T> {
  (data: unknown): data is T;
  errors?: readonly CompiledError[] | null;
}

${table}
/**
 * One precompiled validator per named schema of the contract. The table is in
 * compiled/validators.tables.js and typed once here: TypeScript reads one signature per schema
 * instead of checking a member and two casts per schema.
 */
export const schemaValidators = compiledSchemaValidators as unknown as SchemaValidators;

/** Every operationId this package validates. */
export type { OperationId };

/** Per operation: the compiled parameter, body and response validators and the parameter facts. */
export { operationValidators };

/**
 * validateRequest coerces query, path, header and cookie strings to their declared types, splits
 * comma-separated arrays and applies defaults, or answers the contract's invalid-request problem
 * naming every failure; validateResponse checks a status, media type and body against the contract.
 */
export const { validateRequest, validateResponse } = createValidation<OperationId>(operationValidators, { invalidRequest: ${literal(invalidRequest)} });
${p.deliveries.length > 0 ? deliveryValidation(invalidRequest) : ts``}`.text;
  return { contents, laidOut };
}

/** The problem a refused request or delivery is answered with: the contract's invalid-request type, else a plain 400. */
function invalidRequestOf(model: ApiModel): { readonly type: string; readonly title: string } {
  const invalid = model.problems.find((pr) => pr.slug === "invalid-request");
  return invalid && model.problemBase ? { type: `${model.problemBase.default}/invalid-request`, title: "Invalid Request" } : { type: "about:blank", title: "Bad Request" };
}

/**
 * `./validators`: precompiled ajv standalone validators (nothing compiles at import), one per named
 * schema and per operation request and response, behind `validateRequest`/`validateResponse`.
 */
export const validatorsEmitter = defineEmitter({
  name: "validators",
  exports: { "./validators": "validators" },
  barrel: "namespace",
  dependencies: { "@contractgen/runtime": "^0.1.0", ajv: "^8.20.0", "ajv-formats": "^3.0.1" },
  async emit({ model, workers, unitCache }) {
    const p = validationPlan(model);
    // Everything read from the model is read before the first await: the pipeline runs the other
    // emitters while the two modules compile (on worker threads for large contracts).
    const header = tsHeader(model);
    const wrapperModule = wrapper(model, p);
    const tables = validationTables(model, p);
    // Both roots are the shared part and their own $defs: what holds of a root holds of its members,
    // so the shared part (most of each) is walked once for the two.
    const sharedSplittable = splittable(p.shared);
    const sharedProto = hasPrototypeMemberKeys(p.shared);
    const moduleOf = (root: Obj, exports: Map<string, string>, coerce: boolean): { readonly input: CompileInput; readonly splittable: boolean } => {
      const own = { $defs: root["$defs"] };
      return { input: { root, exports, coerce, ownProperties: sharedProto || hasPrototypeMemberKeys(own) }, splittable: sharedSplittable && splittable(own) };
    };
    const options = workers === undefined ? {} : { workers };
    const copies: UnitCopies = new WeakMap();
    const [strictCode, paramsCode] = await Promise.all(
      [moduleOf(p.strictRoot, p.strictExports, false), moduleOf(p.paramsRoot, p.paramsExports, true)].map((m) =>
        m.splittable ? compileModule(m.input, unitCache ?? NO_CACHE, options, copies) : compileAll([m.input], options).then(([code]) => code as string),
      ),
    );
    const rulesImport = 'import * as rules from "@contractgen/runtime/rules";\n';
    // The compiled modules are JavaScript outside src/, shipped as they are, each with declarations:
    // TypeScript reads the few lines of .d.ts instead of parsing megabytes of generated code in every
    // program that imports the client (GitHub's spec: 101 MB of source, 193 s of tsc).
    return [
      { path: "compiled/validators.strict.js", contents: `${header}${COMPILED_HEADER}${rulesImport}${strictCode}\n`, format: false },
      { path: "compiled/validators.strict.d.ts", contents: `${header}${compiledDeclarations(p.strictExports.keys())}`, format: false },
      { path: "compiled/validators.params.js", contents: `${header}${COMPILED_HEADER}${rulesImport}${paramsCode}\n`, format: false },
      { path: "compiled/validators.params.d.ts", contents: `${header}${compiledDeclarations(p.paramsExports.keys())}`, format: false },
      { path: "compiled/validators.tables.js", contents: `${header}${tables.js}`, format: false },
      { path: "compiled/validators.tables.d.ts", contents: `${header}${tables.dts}`, format: false },
      { path: "src/validators.ts", ...wrapperModule },
    ];
  },
});
