import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { decodeName, decodePrototypeKeys, encodePrototypeKeys } from "./prototype-keys.js";
import { jsdoc, join, stringLiteral, ts, ident } from "./ts.js";
import { deliveryAliases, withCallbacksAsWebhooks } from "./delivery-types.js";

/**
 * `src/types.ts`: openapi-typescript's `paths`, `components` and `operations`, plus one named alias
 * per component schema so consumers write `Post` instead of `components["schemas"]["Post"]`.
 */
export const typesEmitter = defineEmitter({
  name: "types",
  exports: { "./types": "types" },
  async emit({ model }) {
    const { astToString } = await import("openapi-typescript");
    const { typesAst } = await import("./types-ast.js");
    // Hand over the bundled document: openapi-typescript then reads no files and names follow ours.
    // emptyObjectsUnknown: an object schema without properties is an open object, not
    // Record<string, never>, which no real value would fit.
    // Keys such as `constructor` or `__proto__` are encoded around openapi-typescript (prototype-keys.ts).
    const copy = forTypes(model.document);
    withCallbacksAsWebhooks(copy, model);
    const encoded = encodePrototypeKeys(copy);
    const ast = await typesAst(encoded.document as Record<string, unknown>, true);
    // Recursion through top-level arrays (a JSON-value schema) goes through named interfaces.
    const { breakTypeCycles } = await import("./type-cycles.js");
    const typeNames = new Map(model.schemas.map((s) => [s.name, s.typeName]));
    const taken = ["paths", "webhooks", "components", "$defs", "operations", ...typeNames.values()];
    const printed = astToString(breakTypeCycles(ast, { typeNameOf: (name) => typeNames.get(decodeName(name)) ?? name, taken }) as never);
    const body = encoded.changed ? decodePrototypeKeys(printed) : printed;
    const aliases = model.schemas.map((s) =>
      ts`${jsdoc(s.description, { deprecated: isDeprecated(s.schema) })}export type ${ident(s.typeName)} = components["schemas"][${stringLiteral(s.name)}];`,
    );
    const deliveries = model.deliveries.length > 0 ? `\n${deliveryAliases(model).text}\n` : "";
    const contents = `${tsHeader(model)}${body}\n${join(aliases).text}\n${deliveries}`;
    // openapi-typescript prints one consistent layout at every size; prettier would only re-indent
    // it, and its `components` interface is one statement, so any schema change reformatted it whole.
    return [{ path: "src/types.ts", contents, format: false }];
  },
});

/**
 * A copy of the document for type generation: `anyOf`/`oneOf` whose branches only list `required`
 * names ("at least one of brand, gtin, mpn") constrain presence, not shape; openapi-typescript would
 * turn the whole schema into `unknown`, so they are dropped here (the validators still enforce them).
 */
function forTypes(document: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy = structuredClone(document) as Record<string, unknown>;
  const onlyRequired = (b: unknown): boolean =>
    typeof b === "object" && b !== null && !Array.isArray(b) && Object.keys(b).every((k) => k === "required" || k === "description");
  const walk = (node: unknown, parentKey?: string): void => {
    if (Array.isArray(node)) node.forEach((n) => walk(n));
    else if (node !== null && typeof node === "object") {
      const o = node as Record<string, unknown>;
      for (const key of ["anyOf", "oneOf"]) {
        const list = o[key];
        if (Array.isArray(list) && list.length > 0 && list.every(onlyRequired) && (o["properties"] !== undefined || o["type"] !== undefined)) delete o[key];
      }
      // A schema's own `$defs` would become a required `$defs` member of its type; every reference
      // into one was moved to components.schemas by the model (normalize.ts), so it has no readers.
      if (o !== copy && parentKey !== "properties" && parentKey !== "patternProperties" && o["$defs"] !== null && typeof o["$defs"] === "object") delete o["$defs"];
      for (const [k, v] of Object.entries(o)) walk(v, k);
    }
  };
  walk(copy);
  return copy;
}

function isDeprecated(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as Record<string, unknown>)["deprecated"] === true;
}
