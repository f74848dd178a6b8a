/**
 * Support for the cross-field rule tests of the advertising contracts (ads-rules.test.ts): the
 * contracts dereferenced with swagger-parser, an ajv 2020-12 instance with ajv-formats and the
 * `x-rules` keyword from generators/src/rules, the object schema of an operation's query, and every
 * `x-rules` entry a contract declares.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import { parse } from "yaml";
import { addRuleKeyword } from "../../generators/src/rules/ajv-keyword.js";

// CommonJS interop: the default export may arrive wrapped.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof import("ajv/dist/2020.js").default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof import("ajv-formats").default;

export const SPEC_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "spec");

export type AdsSpec = "ads-audiences.yaml" | "ads-campaigns.yaml";
export const ADS_SPECS: AdsSpec[] = ["ads-audiences.yaml", "ads-campaigns.yaml"];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const dereferenced = new Map<AdsSpec, Promise<Obj>>();

/** The contract with every `$ref` (internal and to spec/common) replaced by its target. */
export function loadDereferenced(spec: AdsSpec): Promise<Obj> {
  let doc = dereferenced.get(spec);
  if (!doc) {
    doc = SwaggerParser.dereference(join(SPEC_DIR, spec)) as unknown as Promise<Obj>;
    dereferenced.set(spec, doc);
  }
  return doc;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
addRuleKeyword(ajv as unknown as Parameters<typeof addRuleKeyword>[0]);

const compiled = new WeakMap<object, ValidateFunction>();

/** Validates `value` against `schema`; the ajv errors, or an empty list when it is valid. */
export function validate(schema: Obj, value: unknown): ErrorObject[] {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn(value) ? [] : [...(fn.errors ?? [])];
}

/** A named component schema of the dereferenced contract. */
export async function componentSchema(spec: AdsSpec, name: string): Promise<Obj> {
  const doc = await loadDereferenced(spec);
  const schema = ((doc.components as Obj).schemas as Obj)[name];
  if (!isObj(schema)) throw new Error(`${spec}: no schema ${name}`);
  return schema;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"];

/** The operation with this operationId, with the parameters of its path item merged in. */
export async function findOperation(spec: AdsSpec, operationId: string): Promise<{ operation: Obj; parameters: Obj[] }> {
  const doc = await loadDereferenced(spec);
  for (const item of Object.values(doc.paths as Obj)) {
    if (!isObj(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isObj(operation) && operation.operationId === operationId) {
        const own = (operation.parameters ?? []) as Obj[];
        const shared = ((item.parameters ?? []) as Obj[]).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
        return { operation, parameters: [...shared, ...own] };
      }
    }
  }
  throw new Error(`${spec}: no operation ${operationId}`);
}

const querySchemas = new Map<string, Obj>();

/**
 * The query of an operation as one object schema: a property per query parameter (its schema),
 * `required` from the parameters, and the operation's `x-rules` that apply to the query. Values
 * are given already deserialized (comma-separated lists as arrays, numbers as numbers).
 */
export async function querySchema(spec: AdsSpec, operationId: string): Promise<Obj> {
  const key = `${spec}#${operationId}`;
  let schema = querySchemas.get(key);
  if (!schema) {
    const { operation, parameters } = await findOperation(spec, operationId);
    const query = parameters.filter((p) => p.in === "query");
    const rules = ((operation["x-rules"] ?? []) as Obj[]).filter((r) => r.in === "query");
    schema = {
      type: "object",
      properties: Object.fromEntries(query.map((p) => [p.name as string, p.schema as Obj])),
      required: query.filter((p) => p.required === true).map((p) => p.name as string),
      ...(rules.length ? { "x-rules": rules } : {}),
    };
    querySchemas.set(key, schema);
  }
  return schema;
}

export interface DeclaredRule {
  id: string;
  message: string;
  /** JSON pointer of the `x-rules` array holding it, in the source YAML */
  at: string;
  /** On a response object: a fact about answers the conformance suite checks, not a request validator keyword. */
  onResponse: boolean;
}

/**
 * Every `x-rules` entry written in the contract's own YAML (and in the spec/common files it uses,
 * none of which declares rules today), found by walking the parsed source, so YAML anchors and
 * `$ref` reuse cannot hide or double-count an entry.
 */
export function declaredRules(spec: AdsSpec): DeclaredRule[] {
  const files = [spec, ...commonFilesOf(spec)];
  const found: DeclaredRule[] = [];
  for (const file of files) {
    const source = parse(readFileSync(join(SPEC_DIR, file), "utf8"), { merge: true }) as unknown;
    const walk = (node: unknown, pointer: string): void => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      else if (isObj(node)) {
        for (const [key, value] of Object.entries(node)) {
          if (key === "x-rules" && Array.isArray(value)) {
            const onResponse = /\/responses\/[^/]+$/.test(pointer);
            for (const rule of value) if (isObj(rule)) found.push({ id: String(rule.id), message: String(rule.message), at: `${file}#${pointer}/x-rules`, onResponse });
          } else walk(value, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
        }
      }
    };
    walk(source, "");
  }
  return found;
}

/** The spec/common files a contract references. */
function commonFilesOf(spec: AdsSpec): string[] {
  const text = readFileSync(join(SPEC_DIR, spec), "utf8");
  return [...new Set([...text.matchAll(/'\.\/(common\/[^'#]+)#/g)].map((m) => m[1] as string))].sort();
}
