/**
 * Recursive schemas whose recursion TypeScript cannot follow in openapi-typescript's output.
 *
 * openapi-typescript writes every component schema as a member of `components["schemas"]` and every
 * `$ref` as indexed access into it. TypeScript resolves a member's type eagerly through unions,
 * intersections, array element types and type arguments; only object type literals defer. So a
 * schema that refers to itself through an array at its top level (`JsonValue: oneOf [string, …,
 * array of JsonValue]`, or `Tree: array of Node; Node: oneOf [Leaf, Tree]`) becomes
 * `V: string | components["schemas"]["V"][]`, which fails with TS2502 ("referenced directly or
 * indirectly in its own type annotation").
 *
 * An interface defers its base type, so each such array type is replaced by a named, exported
 * `interface VArray extends Array<components["schemas"]["V"]> {}`: the same values, no eager cycle.
 */
import type ts from "typescript";
import { typescript } from "./types-tools.js";
import { uniqueNames } from "../model/naming.js";
import { cyclicNodes } from "../model/cycles.js";

// Required, not imported: see types-tools.ts.
const tsc = typescript();

type Edges = Map<string, Set<string>>;

/** The schema a type refers to through `components["schemas"]["X"]…`, if any. */
function referencedSchema(node: ts.IndexedAccessTypeNode): string | undefined {
  const chain: ts.TypeNode[] = [];
  let cur: ts.TypeNode = node;
  while (tsc.isIndexedAccessTypeNode(cur)) {
    chain.unshift(cur.indexType);
    cur = cur.objectType;
  }
  if (!tsc.isTypeReferenceNode(cur) || !tsc.isIdentifier(cur.typeName) || cur.typeName.text !== "components") return undefined;
  const keys = chain.map((t) => (tsc.isLiteralTypeNode(t) && tsc.isStringLiteral(t.literal) ? t.literal.text : undefined));
  return keys[0] === "schemas" ? keys[1] : undefined;
}

/** Calls `visit` for every node TypeScript resolves while resolving `node` itself (not object literals). */
function eagerChildren(node: ts.TypeNode, visit: (n: ts.TypeNode) => void): void {
  if (tsc.isUnionTypeNode(node) || tsc.isIntersectionTypeNode(node)) node.types.forEach(visit);
  else if (tsc.isParenthesizedTypeNode(node)) visit(node.type);
  else if (tsc.isArrayTypeNode(node)) visit(node.elementType);
  else if (tsc.isTypeOperatorNode(node)) visit(node.type);
  else if (tsc.isTupleTypeNode(node)) node.elements.forEach((e) => visit(tsc.isNamedTupleMember(e) ? e.type : e));
  else if (tsc.isOptionalTypeNode(node) || tsc.isRestTypeNode(node)) visit(node.type);
  else if (tsc.isTypeReferenceNode(node)) node.typeArguments?.forEach(visit);
  else if (tsc.isIndexedAccessTypeNode(node)) {
    visit(node.objectType);
    visit(node.indexType);
  }
}

/** Schemas reached eagerly from a type. */
function eagerRefs(node: ts.TypeNode, out: Set<string>): Set<string> {
  if (tsc.isIndexedAccessTypeNode(node)) {
    const name = referencedSchema(node);
    if (name !== undefined) {
      out.add(name);
      return out;
    }
  }
  eagerChildren(node, (n) => eagerRefs(n, out));
  return out;
}

function propertyName(member: ts.TypeElement): string | undefined {
  if (!tsc.isPropertySignature(member) || member.name === undefined) return undefined;
  const n = member.name;
  return tsc.isIdentifier(n) || tsc.isStringLiteral(n) || tsc.isNumericLiteral(n) ? n.text : undefined;
}

/** The `schemas` type literal of `export interface components`, if the output has one. */
function schemasLiteral(nodes: readonly ts.Node[]): ts.TypeLiteralNode | undefined {
  for (const n of nodes) {
    if (!tsc.isInterfaceDeclaration(n) || n.name.text !== "components") continue;
    for (const m of n.members) {
      if (propertyName(m) === "schemas" && tsc.isPropertySignature(m) && m.type && tsc.isTypeLiteralNode(m.type)) return m.type;
    }
  }
  return undefined;
}

export interface CycleOptions {
  /** The exported type name of a component schema (`Edge Config` → `EdgeConfig`). */
  readonly typeNameOf: (schemaName: string) => string;
  /** Names the module already declares. */
  readonly taken: Iterable<string>;
}

/**
 * Replaces array types on eager reference cycles among component schemas with named interfaces,
 * returning the new statement list (unchanged when there is no such cycle).
 */
export function breakTypeCycles(nodes: readonly ts.Node[], options: CycleOptions): ts.Node[] {
  const schemas = schemasLiteral(nodes);
  if (!schemas) return [...nodes];
  const types = new Map<string, ts.TypeNode>();
  for (const m of schemas.members) {
    const name = propertyName(m);
    if (name !== undefined && tsc.isPropertySignature(m) && m.type) types.set(name, m.type);
  }
  const edges: Edges = new Map([...types].map(([name, type]) => [name, eagerRefs(type, new Set())]));
  const onCycle = cyclicNodes(edges);
  if (onCycle.size === 0) return [...nodes];

  // Arrays (plain or readonly) reached eagerly from a cyclic schema whose elements lead back eagerly.
  const targets: { array: ts.TypeNode; element: ts.TypeNode; readonly: boolean; owner: string }[] = [];
  const reachesCycle = (n: ts.TypeNode, owner: string): boolean => {
    const seen = new Set<string>();
    const queue = [...eagerRefs(n, new Set())];
    while (queue.length > 0) {
      const s = queue.shift() as string;
      if (seen.has(s)) continue;
      seen.add(s);
      if (s === owner) return true;
      if (onCycle.has(s)) for (const t of edges.get(s) ?? []) queue.push(t);
    }
    return false;
  };
  for (const [name, type] of types) {
    if (!onCycle.has(name)) continue;
    const find = (n: ts.TypeNode): void => {
      const readonlyArray = tsc.isTypeOperatorNode(n) && n.operator === tsc.SyntaxKind.ReadonlyKeyword && tsc.isArrayTypeNode(n.type);
      const array = readonlyArray ? ((n as ts.TypeOperatorNode).type as ts.ArrayTypeNode) : tsc.isArrayTypeNode(n) ? n : undefined;
      if (array && reachesCycle(array.elementType, name)) {
        targets.push({ array: n, element: array.elementType, readonly: readonlyArray, owner: name });
        return;
      }
      eagerChildren(n, find);
    };
    find(type);
  }
  if (targets.length === 0) return [...nodes];

  const names = uniqueNames(targets, (t) => `${options.typeNameOf(t.owner)}Array`, options.taken);
  const replacement = new Map<ts.Node, ts.TypeReferenceNode>(targets.map((t, i) => [t.array, tsc.factory.createTypeReferenceNode(names[i] as string)]));
  const declarations = targets.map((t, i) =>
    tsc.factory.createInterfaceDeclaration(
      [tsc.factory.createModifier(tsc.SyntaxKind.ExportKeyword)],
      names[i] as string,
      undefined,
      [
        tsc.factory.createHeritageClause(tsc.SyntaxKind.ExtendsKeyword, [
          tsc.factory.createExpressionWithTypeArguments(tsc.factory.createIdentifier(t.readonly ? "ReadonlyArray" : "Array"), [t.element]),
        ]),
      ],
      [],
    ),
  );
  const transformer: ts.TransformerFactory<ts.Node> = (context) => {
    const visit = (node: ts.Node): ts.Node => replacement.get(node) ?? tsc.visitEachChild(node, visit, context);
    return (root) => tsc.visitNode(root, visit) as ts.Node;
  };
  const result = tsc.transform([...nodes], [transformer]);
  const out = [...result.transformed];
  result.dispose();
  // After `components`, so the interfaces read next to the schemas they stand for.
  const at = out.findIndex((n) => tsc.isInterfaceDeclaration(n) && n.name.text === "components");
  out.splice(at + 1, 0, ...declarations);
  return out;
}
