import type { ApiModel, JsonSchema, NamedSchema, ProblemType } from "../model/ir.js";
import { uniqueNames } from "../model/naming.js";
import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { ident, join, jsdoc, literal, memberDoc, objectKey, stringLiteral, ts, typeKey, type Code } from "./ts.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const STANDARD = new Set(["type", "title", "status", "detail", "instance"]);
// Members that would redeclare Error or Problem properties stay reachable through `members` only.
const RESERVED = new Set(["members", "name", "message", "stack", "cause", "toJSON", "toString", "constructor", "__proto__", "prototype", "valueOf", "hasOwnProperty"]);

interface Member {
  readonly name: string;
  readonly description?: string;
}

/** Extension members a problem subtype declares: its own properties, not the base Problem's. */
function ownMembers(schema: JsonSchema): Member[] {
  if (!isObj(schema)) return [];
  const parts = [schema, ...(Array.isArray(schema["allOf"]) ? schema["allOf"] : [])];
  const out = new Map<string, Member>();
  for (const part of parts) {
    if (!isObj(part) || typeof part["$ref"] === "string" || !isObj(part["properties"])) continue;
    for (const [name, prop] of Object.entries(part["properties"])) {
      if (STANDARD.has(name) || out.has(name)) continue;
      const description = isObj(prop) && typeof prop["description"] === "string" ? prop["description"] : undefined;
      out.set(name, { name, ...(description ? { description } : {}) });
    }
  }
  return [...out.values()];
}

function typeUri(model: ApiModel, slug: string): string {
  if (slug === "about:blank") return slug;
  return `${model.problemBase?.default ?? "about:blank#"}/${slug}`;
}

/** Schemas used as bodies of error responses (4XX, 5XX, default) that are not problem types. */
function errorSchemas(model: ApiModel): NamedSchema[] {
  const problemNames = new Set(model.problems.map((p) => p.schemaName));
  const used = new Set<string>();
  for (const op of model.operations) {
    for (const r of op.responses) {
      if (!(r.status === "default" || /^[45]/.test(r.status))) continue;
      for (const c of r.contents) {
        const ref = isObj(c.schema) && typeof c.schema["$ref"] === "string" ? /^#\/components\/schemas\/(.+)$/.exec(c.schema["$ref"]) : null;
        if (ref)
          used.add(
            decodeURIComponent(ref[1] as string)
              .replace(/~1/g, "/")
              .replace(/~0/g, "~"),
          );
      }
    }
  }
  return model.schemas.filter((s) => used.has(s.name) && !problemNames.has(s.name) && s.name !== "Problem" && !isProblemUnion(s));
}

function isProblemUnion(s: NamedSchema): boolean {
  return isObj(s.schema) && isObj(s.schema["discriminator"]) && s.schema["discriminator"]["propertyName"] === "type";
}

/** `AdsBatchError` stays; `Foo` becomes `FooError`; `Error` itself would shadow the global. */
function errorClassBaseName(s: NamedSchema): string {
  if (s.typeName === "Error") return "ErrorResponse";
  return /Error$/.test(s.typeName) ? s.typeName : `${s.typeName}Error`;
}

/** Names problems.ts declares or imports itself; an error class named like one gets a suffix. */
const MODULE_NAMES = [
  "ApiError",
  "Problem",
  "ResponseError",
  "createProblemParser",
  "readLegacyErrors",
  "ProblemClass",
  "ProblemInit",
  "ProblemParserOptions",
  "components",
  "schemaValidators",
  "invalidMembersOf",
  "problemClasses",
  "parseProblem",
  "parseLegacyError",
  "errorClasses",
];

/** One class name per error schema, unique in the module (`ApiError` schema → `ApiError2`). */
function errorClassNames(model: ApiModel, schemas: readonly NamedSchema[]): string[] {
  return uniqueNames(schemas, errorClassBaseName, [...MODULE_NAMES, ...model.problems.map((p) => p.typeName)]);
}

function problemClass(model: ApiModel, p: ProblemType, schema: JsonSchema): Code {
  const members = ownMembers(schema);
  const body = ts`components["schemas"][${stringLiteral(p.schemaName)}]`;
  const fields = members.filter((m) => !RESERVED.has(m.name)).map((m) => ts`${memberDoc(m.description)}declare readonly ${typeKey(m.name)}?: ${body}[${stringLiteral(m.name)}];`);
  const init =
    members.length > 0
      ? ts`ProblemInit<Pick<${body}, ${join(
          members.map((m) => ts`${stringLiteral(m.name)}`),
          " | ",
        )}>>`
      : ts`ProblemInit`;
  return ts`${jsdoc(p.description ?? p.title, { see: typeUri(model, p.slug) })}export class ${ident(p.typeName)} extends Problem {
  static override readonly type: string = ${typeUri(model, p.slug)};
  static override readonly slug: string = ${p.slug};
  static override readonly memberNames: readonly string[] = ${literal(members.map((m) => m.name))};
  static override invalidMembers(body: Readonly<Record<string, unknown>>): readonly string[] {
    return invalidMembersOf(schemaValidators[${stringLiteral(p.typeName)}], body);
  }
${join(fields)}
  constructor(init: ${init} = {}) {
    super(init);
  }
}
`;
}

function errorClass(s: NamedSchema, name: string): Code {
  const note = s.unspecified !== undefined ? `The contract does not show this body's shape (${s.unspecified}); the class keeps whatever arrives.` : undefined;
  const description = [s.description, note].filter((x): x is string => x !== undefined).join("\n\n");
  return ts`${jsdoc(description || `Error response whose body is ${s.name}.`)}export class ${ident(name)} extends ResponseError<components["schemas"][${stringLiteral(s.name)}] | unknown> {
  static override fits(body: unknown): boolean {
    return schemaValidators[${stringLiteral(s.typeName)}](body);
  }
}
`;
}

/**
 * `./problems`: one class per problem type of the catalogue (`instanceof` across the hierarchy,
 * `parseProblem` to map a body to its class), `ApiError` for the legacy envelope, and one class per
 * other error-response schema. Member checks reuse the precompiled validators.
 */
export const problemsEmitter = defineEmitter({
  name: "problems",
  exports: { "./problems": "problems" },
  barrel: "namespace",
  dependencies: { "@contractgen/runtime": "^0.1.0" },
  emit({ model }) {
    const schemaOf = (name: string): JsonSchema => model.schemas.find((s) => s.name === name)?.schema ?? {};
    const classes = model.problems.map((p) => problemClass(model, p, schemaOf(p.schemaName)));
    const errorSchemaList = errorSchemas(model);
    const errorNames = errorClassNames(model, errorSchemaList);
    const errors = errorSchemaList.map((s, i) => errorClass(s, errorNames[i] as string));
    const errorMap = errorSchemaList.map((s, i) => ts`  ${objectKey(s.name)}: ${ident(errorNames[i] as string)},`);
    const code = ts`import {
  ApiError,
  Problem,
  ResponseError,
  createProblemParser,
  readLegacyErrors,
  type ProblemClass,
  type ProblemInit,
  type ProblemParserOptions,
} from "@contractgen/runtime/problem";
import type { components } from "./types.js";
import { schemaValidators } from "./validators.js";

export { ApiError, Problem, ResponseError };

/** Members a validator rejects: the first segment of each failing instance path. */
function invalidMembersOf(validate: (body: unknown) => boolean, body: Readonly<Record<string, unknown>>): string[] {
  if (validate(body)) return [];
  const errors = (validate as { errors?: readonly { instancePath: string }[] | null }).errors ?? [];
  const names = new Set<string>();
  for (const e of errors) {
    const first = e.instancePath.split("/")[1];
    if (first !== undefined && first !== "") names.add(first.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  return [...names];
}
${join(classes)}
/** Every problem class of the catalogue, in contract order. */
export const problemClasses: readonly ProblemClass[] = [${join(
      model.problems.map((p) => ts`${ident(p.typeName)}`),
      ", ",
    )}];

/**
 * The problem class a body's \`type\` names (RFC 9457: a missing type is about:blank; members of the
 * wrong type are ignored, never thrown on). Unknown types give the base \`Problem\`.
 */
export function parseProblem(body: unknown, status?: number, options: ProblemParserOptions = {}): Problem {
  return createProblemParser(problemClasses, options)(body, status);
}

/** The legacy envelope \`{errors:[{code, message}]}\` as an \`ApiError\`, or undefined for any other body. */
export function parseLegacyError(body: unknown, status?: number): ApiError | undefined {
  const errors = readLegacyErrors(body);
  return errors ? new ApiError(errors, status) : undefined;
}

${join(errors)}
/** Error classes by the schema name of the error body they carry. */
export const errorClasses = {
${join(errorMap)}
} as const;
`;
    return [{ path: "src/problems.ts", contents: tsHeader(model) + code.text }];
  },
});
