import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { jsdoc, join, stringLiteral, ts, ident } from "./ts.js";
import { deliveryAliases } from "./delivery-types.js";
import { printTypes } from "./types-print.js";
import { splicedTypes, type PrintedTypes } from "./types-splice.js";
import { defaultWorkerCount, orInline, poolOf } from "../workers/pool.js";
import { directionViews } from "../model/directions.js";
import { printViews, viewsInput, type ViewsInput } from "./types-views.js";

/**
 * From this many operations a contract's types print on a worker thread. Below it, printing takes
 * less than starting a worker and loading TypeScript there.
 * @default 100
 */
export const TYPES_ON_WORKER_FROM = 100;

const PRINT_MODULE = new URL("./types-print.js", import.meta.url).href;
const VIEWS_MODULE = new URL("./types-views.js", import.meta.url).href;

/**
 * The last print of each contract's types in this process (by spec path and package name): what a
 * run of `--watch` after an edit starts from. One per contract, replaced by every print.
 */
const lastPrinted = new Map<string, PrintedTypes>();

/**
 * The contract's types: openapi-typescript's `paths`, `components` and `operations`, plus one named
 * alias per component schema so consumers write `Post` instead of `components["schemas"]["Post"]`.
 *
 * They ship as a declaration file, `compiled/types.d.ts`, which `src/types.ts` re-exports. The file
 * holds types only, and as a `.d.ts` it is one a consumer's `skipLibCheck` skips: every build of a
 * project that imports the package no longer checks all of it (on GitHub's contract, 7.6 MB), only
 * what the project's code uses. openapi-typescript recommends `.d.ts` output for the same reason.
 */
export const typesEmitter = defineEmitter({
  name: "types",
  exports: { "./types": "types" },
  async emit({ model, workers, keepWorkers }) {
    const input = {
      document: model.document as Record<string, unknown>,
      deliveries: model.deliveries.map((d) => ({ pointer: d.pointer, typesKey: d.typesKey, kind: d.kind })),
      typeNames: model.schemas.map((s) => [s.name, s.typeName] as const),
    };
    // A large contract's types print on a worker thread (with openapi-typescript and TypeScript
    // loaded there), beside the emitters on this one; a small one's here, where a worker would cost
    // more to start than the printing takes.
    const pool = model.operations.length >= TYPES_ON_WORKER_FROM ? poolOf(Math.min(1, workers ?? defaultWorkerCount()), keepWorkers ? "large-kept" : "large") : undefined;
    const print = (what: typeof input): Promise<string> =>
      pool ? orInline(pool.run<string>(PRINT_MODULE, "printTypes", [{ ...what, owned: true }]), () => printTypes({ ...what, owned: false })) : printTypes({ ...what, owned: false });
    // After an edit to a few schemas, this process's last print of the same contract is reused
    // with just their members printed again (types-splice.ts), when that gives the same text.
    // The direction views (readOnly, writeOnly and defaulted members at every depth), read from the
    // model now and printed after the types, on the same thread as they.
    const views = viewsInput(directionViews(model.document), model.document as Record<string, unknown>);
    const printedViews = (): Promise<string> => {
      const empty = (v: ViewsInput["request"]): boolean => v.components.length === 0 && v.bodies.length === 0;
      if (empty(views.request) && empty(views.response)) return Promise.resolve("");
      return pool ? orInline(pool.run<string>(VIEWS_MODULE, "printViews", [views]), () => printViews(views)) : printViews(views);
    };
    const key = `${model.source.path}\0${model.name}`;
    const rest = JSON.stringify([input.deliveries, input.typeNames]);
    const last = lastPrinted.get(key);
    const spliced = last === undefined ? undefined : await splicedTypes(last, input.document, rest, (partial) => print({ ...input, document: partial, deliveries: [] }));
    const body = spliced ?? (await print(input));
    lastPrinted.set(key, { document: input.document, rest, body });
    const aliases = model.schemas.map((s) => ts`${jsdoc(s.description, { deprecated: isDeprecated(s.schema) })}export type ${ident(s.typeName)} = components["schemas"][${stringLiteral(s.name)}];`);
    const deliveries = model.deliveries.length > 0 ? `\n${deliveryAliases(model).text}\n` : "";
    const viewText = await printedViews();
    const contents = `${tsHeader(model)}${body}\n${join(aliases).text}\n${deliveries}${viewText === "" ? "" : `\n${viewText}`}`;
    // openapi-typescript prints one consistent layout at every size; prettier would only re-indent
    // it, and its `components` interface is one statement, so any schema change reformatted it whole.
    // `export type *` is erased from the built module: there is no compiled/types.js to load.
    const reexport = `${tsHeader(model)}export type * from "../compiled/types.js";\n`;
    return [
      { path: "compiled/types.d.ts", contents, format: false },
      { path: "src/types.ts", contents: reexport, format: false },
    ];
  },
});

function isDeprecated(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as Record<string, unknown>)["deprecated"] === true;
}
