/**
 * The direction views of a contract's types (model/directions.ts): the schemas that read
 * differently in requests or in responses, printed by openapi-typescript from their copies, as
 *
 *   export interface requestComponents { schemas: { Matcher: {…}; … } }
 *   export interface requestBodies { "POST /silences application/json": {…} }
 *   export interface responseComponents { … }   export interface responseBodies { … }
 *
 * beside `components` in compiled/types.d.ts. A view's reference to a schema that has a view of its
 * own names that view; one to any other schema names `components` as the main print does. Only
 * what differs is printed, so a contract without readOnly, writeOnly or defaulted members (or
 * whose defaults sit in inline request bodies, which openapi-typescript already reads as optional)
 * adds nothing.
 */
import type ts from "typescript";
import type { DirectionView, DirectionViews } from "../model/directions.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Names of the printed interfaces per direction. */
export const VIEW_NAMES = {
  request: { components: "requestComponents", bodies: "requestBodies" },
  response: { components: "responseComponents", bodies: "responseBodies" },
} as const;

/** What printing the views reads (structured-cloneable, like the types' input). */
export interface ViewsInput {
  readonly openapi: string;
  readonly request: { readonly components: readonly (readonly [string, unknown])[]; readonly bodies: readonly (readonly [string, unknown])[] };
  readonly response: ViewsInput["request"];
  /** Every component schema (stand-ins for the ones a view references, discriminators included). */
  readonly schemas: Readonly<Record<string, unknown>>;
}

export function viewsInput(views: DirectionViews, document: Obj): ViewsInput {
  const list = (v: DirectionView): ViewsInput["request"] => ({ components: [...v.components], bodies: [...v.bodies] });
  const schemas = isObj(document["components"]) && isObj((document["components"] as Obj)["schemas"]) ? ((document["components"] as Obj)["schemas"] as Obj) : {};
  return { openapi: typeof document["openapi"] === "string" ? document["openapi"] : "3.1.0", request: list(views.request), response: list(views.response), schemas };
}

/** The views' declarations (empty when nothing differs). */
export async function printViews(input: ViewsInput): Promise<string> {
  const parts: string[] = [];
  for (const direction of ["request", "response"] as const) {
    const view = input[direction];
    if (view.components.length === 0 && view.bodies.length === 0) continue;
    parts.push(await printView(input, direction));
  }
  return parts.join("\n");
}

const REF = /^#\/components\/schemas\/([^/]+)$/;

async function printView(input: ViewsInput, direction: "request" | "response"): Promise<string> {
  const { typesAst } = await import("./types-ast.js");
  const { typescript, openapiTypescriptParts } = await import("./types-tools.js");
  const tsc = typescript();
  const view = input[direction];
  const names = VIEW_NAMES[direction];
  const own = new Set(view.components.map(([n]) => n));
  const schemas: Obj = {};
  for (const [name, schema] of view.components) schemas[name] = schema;
  // Bodies become schemas of their own under names no component has.
  const bodyNames = new Map<string, string>();
  view.bodies.forEach(([key], i) => {
    let name = `__contractgen_body_${i}`;
    while (Object.hasOwn(input.schemas, name) || own.has(name)) name = `_${name}`;
    bodyNames.set(name, key);
  });
  view.bodies.forEach(([, schema], i) => (schemas[[...bodyNames.keys()][i] as string] = schema));
  // Every schema a copy references must exist for the printer; one whose discriminator shapes its
  // subtypes' types stands as it is, any other as an empty stand-in (never printed into the view).
  const referenced = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObj(node)) {
      const m = typeof node["$ref"] === "string" ? REF.exec(node["$ref"]) : null;
      if (m)
        referenced.add(
          decodeURIComponent(m[1] as string)
            .replace(/~1/g, "/")
            .replace(/~0/g, "~"),
        );
      const mapping = isObj(node["discriminator"]) ? (node["discriminator"] as Obj)["mapping"] : undefined;
      if (isObj(mapping)) for (const v of Object.values(mapping)) if (typeof v === "string" && REF.test(v)) walk({ $ref: v });
      Object.values(node).forEach(walk);
    }
  };
  walk(schemas);
  // Until no reference is left without its schema (an original with a discriminator brings its own).
  for (let added = true; added;) {
    added = false;
    for (const name of [...referenced]) {
      if (Object.hasOwn(schemas, name)) continue;
      const original = input.schemas[name];
      const keep = isObj(original) && original["discriminator"] !== undefined;
      schemas[name] = keep ? original : {};
      if (keep) walk(original);
      added = true;
    }
  }
  const document = { openapi: input.openapi, info: { title: "views", version: "0" }, paths: {}, components: { schemas } };
  const nodes = await typesAst(document, true);
  const componentsNode = nodes.find((n): n is ts.InterfaceDeclaration => tsc.isInterfaceDeclaration(n) && n.name.text === "components");
  const schemasMember = componentsNode?.members.find((m) => tsc.isPropertySignature(m) && memberName(tsc, m) === "schemas") as ts.PropertySignature | undefined;
  const literal = schemasMember?.type !== undefined && tsc.isTypeLiteralNode(schemasMember.type) ? schemasMember.type : undefined;
  if (literal === undefined) return "";
  const f = tsc.factory;
  const exported = [f.createModifier(tsc.SyntaxKind.ExportKeyword)];
  const componentMembers = literal.members.filter((m) => own.has(memberName(tsc, m) ?? ""));
  const bodyMembers = literal.members.flatMap((m) => {
    const key = bodyNames.get(memberName(tsc, m) ?? "");
    return key !== undefined && tsc.isPropertySignature(m) && m.type ? [f.createPropertySignature(undefined, f.createStringLiteral(key), undefined, m.type)] : [];
  });
  const declarations: ts.Node[] = [];
  if (componentMembers.length > 0) {
    declarations.push(
      f.createInterfaceDeclaration(exported, names.components, undefined, undefined, [f.createPropertySignature(undefined, "schemas", undefined, f.createTypeLiteralNode(componentMembers))]),
    );
  }
  if (bodyMembers.length > 0) declarations.push(f.createInterfaceDeclaration(exported, names.bodies, undefined, undefined, bodyMembers));
  const printed = openapiTypescriptParts().astToString(declarations as never);
  const about =
    direction === "request"
      ? "/** Schemas and inline bodies as requests send them: readOnly members absent, members with a default optional (only those that differ from `components`). */\n"
      : "/** Schemas and inline bodies as responses carry them: writeOnly members absent (only those that differ from `components`). */\n";
  // A reference to a schema with a view of its own names the view.
  const text = printed.replace(/components\["schemas"\]\["((?:[^"\\]|\\.)*)"\]/g, (whole, raw: string) => {
    const name = JSON.parse(`"${raw}"`) as string;
    return own.has(name) ? `${names.components}["schemas"]["${raw}"]` : whole;
  });
  return `${about}${text}`;
}

function memberName(tsc: typeof ts, m: ts.TypeElement): string | undefined {
  const n = m.name;
  if (n === undefined) return undefined;
  if (tsc.isIdentifier(n) || tsc.isStringLiteral(n) || tsc.isNumericLiteral(n)) return n.text;
  return undefined;
}
