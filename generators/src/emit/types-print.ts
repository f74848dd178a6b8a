/**
 * The body of `compiled/types.d.ts` (re-exported by `src/types.ts`): openapi-typescript's `paths`, `components`, `operations` and
 * `webhooks`, printed. Everything it needs comes in one structured-cloneable input, so it runs on a
 * worker thread for large contracts (types.ts) with the same result as on the calling thread.
 */
import { parsePointer } from "../load/errors.js";
import { decodeName, decodePrototypeKeys, encodePrototypeKeys } from "./prototype-keys.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** What printing the types reads. */
export interface TypesInput {
  /** The bundled document (the model's). */
  readonly document: Obj;
  /** Whether `document` is this call's own copy, which it may change (a worker's is: it was cloned to get there). */
  readonly owned: boolean;
  /** Each delivery (webhook or callback): its operation's pointer and its key under `webhooks`. */
  readonly deliveries: readonly { readonly pointer: string; readonly typesKey: string; readonly kind: "webhook" | "callback" }[];
  /** Component schema name → its type alias name. */
  readonly typeNames: readonly (readonly [string, string])[];
}

/** Prints the types of `input.document` (types.ts adds the aliases and the header). */
export async function printTypes(input: TypesInput): Promise<string> {
  const { astToString } = (await import("./types-tools.js")).openapiTypescriptParts();
  const { typesAst } = await import("./types-ast.js");
  const { breakTypeCycles } = await import("./type-cycles.js");
  // Hand over the bundled document: openapi-typescript then reads no files and names follow ours.
  // emptyObjectsUnknown: an object schema without properties is an open object, not
  // Record<string, never>, which no real value would fit.
  // Keys such as `constructor` or `__proto__` are encoded around openapi-typescript (prototype-keys.ts).
  const copy = forTypes(input.owned ? input.document : (structuredClone(input.document) as Obj));
  withCallbacksAsWebhooks(copy, input.deliveries);
  const encoded = encodePrototypeKeys(copy);
  const ast = await typesAst(encoded.document as Obj, true);
  // Recursion through top-level arrays (a JSON-value schema) goes through named interfaces.
  const typeNames = new Map(input.typeNames);
  const taken = ["paths", "webhooks", "components", "$defs", "operations", ...typeNames.values()];
  const printed = astToString(breakTypeCycles(ast, { typeNameOf: (name) => typeNames.get(decodeName(name)) ?? name, taken }) as never);
  return encoded.changed ? decodePrototypeKeys(printed) : printed;
}

/**
 * The document for type generation, changed in place: `anyOf`/`oneOf` whose branches only list
 * `required` names ("at least one of brand, gtin, mpn") constrain presence, not shape;
 * openapi-typescript would turn the whole schema into `unknown`, so they are dropped here (the
 * validators still enforce them).
 */
function forTypes(copy: Obj): Obj {
  const onlyRequired = (b: unknown): boolean => typeof b === "object" && b !== null && !Array.isArray(b) && Object.keys(b).every((k) => k === "required" || k === "description");
  const walk = (node: unknown, parentKey?: string): void => {
    if (Array.isArray(node)) node.forEach((n) => walk(n));
    else if (node !== null && typeof node === "object") {
      const o = node as Obj;
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

/**
 * Lists each callback's path item (and each `x-webhooks` entry of a 3.0 document) under `webhooks`
 * in the copy handed to openapi-typescript, which types only root `webhooks`.
 */
function withCallbacksAsWebhooks(copy: Obj, deliveries: TypesInput["deliveries"]): void {
  const listed = isObj(copy["webhooks"]) ? copy["webhooks"] : undefined;
  const missing = deliveries.filter((d) => listed === undefined || !Object.prototype.hasOwnProperty.call(listed, d.typesKey) || d.kind === "callback");
  if (missing.length === 0) return;
  const webhooks = (listed ?? (copy["webhooks"] = {})) as Obj;
  for (const d of missing) {
    // The pointer names the operation; its path item is one level up.
    let node: unknown = copy;
    const segs = parsePointer(d.pointer);
    for (const seg of segs.slice(0, -1)) node = isObj(node) ? node[seg] : undefined;
    if (isObj(node) && typeof node["$ref"] === "string") {
      let target: unknown = copy;
      for (const seg of parsePointer(node["$ref"])) target = isObj(target) ? target[seg] : undefined;
      node = target;
    }
    if (isObj(node)) webhooks[d.typesKey] = node;
  }
}
