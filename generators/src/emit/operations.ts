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
    const code = ts`
export interface OperationInfo {
  readonly operationId: string;
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
  readonly path: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly deprecation?: { readonly at?: string; readonly replacedBy?: string; readonly sunset?: string };
  /** Set when the document names the operation without showing its shape: what is missing. */
  readonly unspecified?: string;
}

${jsdoc(`Every operation of ${model.info.title} ${model.info.version}, in spec order.`)}export const operationList: readonly OperationInfo[] = [
${join(table.map((row) => ts`  ${literal(row)},`))}
];

/** The API version this package was generated from. */
export const apiVersion = ${model.info.version};
`;
    return [{ path: "src/operations.ts", contents: tsHeader(model) + code.text.trimStart() }];
  },
});
