import { defineEmitter } from "./emitter.js";
import { tsHeader } from "./header.js";
import { jsdoc, join, stringLiteral, ts, ident } from "./ts.js";

/**
 * `src/types.ts`: openapi-typescript's `paths`, `components` and `operations`, plus one named alias
 * per component schema so consumers write `Post` instead of `components["schemas"]["Post"]`.
 */
export const typesEmitter = defineEmitter({
  name: "types",
  exports: { "./types": "types" },
  async emit({ model }) {
    const { default: openapiTS, astToString } = await import("openapi-typescript");
    // Hand over the bundled document: openapi-typescript then reads no files and names follow ours.
    const ast = await openapiTS(structuredClone(model.document) as never, { silent: true });
    const body = astToString(ast);
    const aliases = model.schemas.map((s) =>
      ts`${jsdoc(s.description, { deprecated: isDeprecated(s.schema) })}export type ${ident(s.typeName)} = components["schemas"][${stringLiteral(s.name)}];`,
    );
    const contents = `${tsHeader(model)}${body}\n${join(aliases).text}\n`;
    return [{ path: "src/types.ts", contents }];
  },
});

function isDeprecated(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as Record<string, unknown>)["deprecated"] === true;
}
