import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { join, jsdoc, literal, ts } from "./ts.js";

/**
 * `src/operations.ts`: what every operation is (id, method, path, tags, deprecation, whether the
 * document shows its shape), as data. Clients, servers and tests route by it.
 */
export const operationsEmitter = defineEmitter({
  name: "operations",
  exports: { "./operations": "operations" },
  emit({ model }) {
    const table = model.operations.map((op) => ({
      operationId: op.id,
      method: op.method.toUpperCase(),
      path: op.path,
      tags: op.tags,
      deprecated: op.deprecated,
      ...(op.deprecation ? { deprecation: op.deprecation } : {}),
      ...(op.unspecified !== undefined ? { unspecified: op.unspecified } : {}),
    }));
    // The list is data, so it ships as JavaScript with a declaration file (compiled/, like the
    // validators' tables): TypeScript reads one declaration instead of checking an object literal
    // per operation in every program that imports the package (GitHub's API: about 0.3 s of tsc).
    const dts = ts`export interface OperationInfo {
  readonly operationId: string;
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
  readonly path: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly deprecation?: { readonly at?: string; readonly replacedBy?: string; readonly sunset?: string };
  /** Set when the document names the operation without showing its shape: what is missing. */
  readonly unspecified?: string;
}

/** Every operation of the contract, in spec order. */
export declare const operationList: readonly OperationInfo[];
`;
    const js = ts`export const operationList = [
${join(table.map((row) => ts`  ${literal(row)},`))}
];
`;
    const code = ts`
export type { OperationInfo } from "../compiled/operations.tables.js";

${jsdoc(`Every operation of ${model.info.title} ${model.info.version}, in spec order.`)}export { operationList } from "../compiled/operations.tables.js";

/** The API version this package was generated from. */
export const apiVersion = ${model.info.version};
`;
    return [
      { path: "compiled/operations.tables.js", contents: tsHeader(model) + js.text, format: false },
      { path: "compiled/operations.tables.d.ts", contents: tsHeader(model) + dts.text, format: false },
      { path: "src/operations.ts", contents: tsHeader(model) + code.text.trimStart() },
    ];
  },
});
