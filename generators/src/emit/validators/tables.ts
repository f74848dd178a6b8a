/**
 * `compiled/validators.tables.js`: per named schema its compiled validator, and per operation and
 * per delivery, which compiled validator checks its parameters, body and responses, and the facts
 * about its parameters. The tables are data, so they ship as JavaScript with a declaration file,
 * like the compiled validators they point to:
 * TypeScript reads their one-line types instead of checking thousands of object literals in every
 * program that imports the package (GitHub's spec: about a quarter of tsc's checking time).
 */
import type { ApiModel, JsonSchema } from "../../model/ir.js";
import { ident, join, literal, objectKey, stringUnion, ts, type Code } from "../ts.js";
import type { OperationPlan, Plan, Ref } from "./index.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The tables module and its declarations. */
export function validationTables(model: ApiModel, p: Plan): { readonly js: string; readonly dts: string } {
  const deliveries = p.deliveries.length > 0;
  const js = ts`import * as params from "./validators.params.js";
import * as strict from "./validators.strict.js";

export const schemaValidators = {
${join(model.schemas.map((s, i) => ts`  ${objectKey(s.typeName)}: strict.${ident(`s${i}`)},`))}
};

export const operationValidators = {
${join(p.operations.map((o) => validationEntry(model, o)))}
};
${
  deliveries
    ? ts`
export const deliveryValidators = {
${join(p.deliveries.map((d) => validationEntry(model, d)))}
};
`
    : ts``
}`;
  const dts = ts`import type { CompiledValidator, OperationValidation } from "@contractgen/runtime/validation";

/** One precompiled validator per named schema, by type name (src/validators.ts types each). */
export declare const schemaValidators: Readonly<Record<string, CompiledValidator>>;

/** Every operationId this package validates. */
export type OperationId = ${stringUnion(p.operations.map((o) => o.op.id))};

/** Per operation: the compiled parameter, body and response validators and the parameter facts. */
export declare const operationValidators: Readonly<Record<OperationId, OperationValidation>>;
${
  deliveries
    ? ts`
/** Every delivery this package validates, by its id (operationId, else the webhook's name). */
export type DeliveryId = ${stringUnion(p.deliveries.map((d) => d.op.id))};

/** Per delivery (webhook or callback): the compiled header, payload and answer validators. */
export declare const deliveryValidators: Readonly<Record<DeliveryId, OperationValidation>>;
`
    : ts``
}`;
  return { js: `${js.text}`, dts: `${dts.text}` };
}

/** One operation's (or delivery's) entry of a validation table. */
export function validationEntry(model: ApiModel, o: OperationPlan): Code {
  const facts = o.parameters.map((x) => ({
    name: x.name,
    in: x.in,
    style: x.style,
    explode: x.explode,
    array: isArraySchema(x.schema, model),
  }));
  const media = (list: readonly { mediaType: string; ref?: Ref }[]): Code =>
    ts`{ ${join(
      list.map((m) => ts`${objectKey(m.mediaType)}: ${refCode(m.ref)}`),
      ", ",
    )} }`;
  const body = o.body ? ts`body: { required: ${o.body.required}, media: ${media(o.body.media)} },` : ts``;
  const responses = join(
    o.responses.map((r) => ts`${objectKey(r.status)}: ${media(r.media)}`),
    ", ",
  );
  return ts`  ${objectKey(o.op.id)}: { params: params.${ident(o.params)}, parameters: ${literal(facts)}, ${body} responses: { ${responses} } },`;
}

export function refCode(ref: Ref | undefined): Code {
  return ref ? ts`${ident(ref.module)}.${ident(ref.name)}` : ts`undefined`;
}

function isArraySchema(schema: JsonSchema, model: ApiModel): boolean {
  let s: unknown = schema;
  for (let hops = 0; hops < 10 && isObj(s) && typeof s["$ref"] === "string"; hops++) {
    const m = /^#\/components\/schemas\/(.+)$/.exec(s["$ref"] as string);
    const name = m
      ? decodeURIComponent(m[1] as string)
          .replace(/~1/g, "/")
          .replace(/~0/g, "~")
      : undefined;
    s = model.schemas.find((x) => x.name === name)?.schema;
  }
  if (!isObj(s)) return false;
  return s["type"] === "array" || (Array.isArray(s["type"]) && s["type"].includes("array"));
}
