/**
 * `compiled/client.tables.js`: how the client calls each operation (method, path, parameters, body,
 * security, limits), the error schemas per status, and which method of which group calls which
 * operation. The tables are data, so they ship as JavaScript with a declaration file, like the
 * validators' tables: TypeScript reads their one-line types instead of checking an object literal
 * per operation in every program that imports the client (GitHub's API: about 1.3 s of tsc).
 */
import { join, stringUnion, ts, type Code } from "./ts.js";

/** The tables module and its declarations; `specs` are the entries of `operationSpecs`. */
export function clientTables(ids: readonly string[], specs: readonly Code[], errorSchemas: Code, methods: Code): { readonly js: string; readonly dts: string } {
  const js = ts`export const operationSpecs = {
${join(specs)}
};

export const errorSchemas = ${errorSchemas};

export const clientMethods = ${methods};
`;
  const dts = ts`import type { OperationSpec } from "@contractgen/runtime/client";

/** The operations the client calls, by operationId. */
export type OperationKey = ${stringUnion(ids)};

/** How each operation is called: method, path, parameters, body, security, limits. */
export declare const operationSpecs: Readonly<Record<OperationKey, OperationSpec>>;

/** Per operation and error status, the component schema of its body (it picks the error class). */
export declare const errorSchemas: Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Per group of the client, its method names and the operation each calls. */
export declare const clientMethods: {
  readonly call: Readonly<Record<string, OperationKey>>;
  /** Methods whose arguments the contract requires: they get no \`{}\` default. */
  readonly required: readonly string[];
  readonly iterate: Readonly<Record<string, OperationKey>>;
  readonly batch: Readonly<Record<string, OperationKey>>;
  readonly stream: Readonly<Record<string, OperationKey>>;
  /** Responses that are streams by their media type, with their framing. */
  readonly items: Readonly<Record<string, readonly [OperationKey, "ndjson" | "event-stream"]>>;
};
`;
  return { js: js.text, dts: dts.text };
}
