import type { KeywordCxt, CodeKeywordDefinition } from "ajv";
import { _, Name, not, strConcat, stringify } from "ajv/dist/compile/codegen/index.js";
import { resetErrorsCount } from "ajv/dist/compile/errors.js";
import namesModule from "ajv/dist/compile/names.js";

// names.js is CommonJS with a default export: Node's ESM loader hands over module.exports (the
// names under `.default`), bundling loaders such as vitest's hand over `.default` itself.
type Names = typeof import("ajv/dist/compile/names.js").default;
const namesExport = namesModule as unknown as Names & { default?: Names };
const names: Names = namesExport.default ?? namesExport;
import type { CleanRule } from "./json-schema.js";
import { RULE_SCHEMAS } from "./json-schema.js";

/** The keyword a cross-unit `$ref` is rewritten to (see units.ts). */
export const UNIT_REF = "x-contractgen-unit-ref";
import { satisfiesRule } from "@contractgen/runtime/rules";

/**
 * `x-rules` as an ajv code keyword, so rules compile into standalone validators. Comparison kinds
 * call the runtime's `satisfiesRule` (imported as `rules` by the generated module); `kind: schema`
 * rules validate their subschema in place. Each failure is one error carrying the rule's id, its
 * message and the fields it concerns, whatever failed inside.
 */
export const rulesKeyword: CodeKeywordDefinition = {
  keyword: "x-rules",
  schemaType: "array",
  error: {
    message: ({ params }) => _`${params["message"]}`,
    params: ({ params }) => _`{rule: ${params["rule"]}, fields: ${params["fields"]}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const rules = cxt.schema as CleanRule[];
    const satisfies = gen.scopeValue("func", { ref: satisfiesRule, code: _`rules.satisfiesRule` });
    rules.forEach((rule, i) => {
      const report = (): void => {
        cxt.setParams({ rule: stringify(rule.id), message: stringify(rule.message), fields: stringify([...rule.fields]) });
        cxt.error();
      };
      if (rule.kind === "schema") {
        const valid = gen.name("ruleValid");
        const before = gen.const("rulesErrors", names.errors);
        cxt.subschema({ keyword: RULE_SCHEMAS, schemaProp: i, compositeRule: true, createErrors: false, allErrors: false }, valid);
        // The subschema's own failures are not the user's message: drop them, report the rule.
        resetErrorsCount(gen, before);
        gen.if(not(valid), report);
      } else {
        const { id: _id, message: _m, ...body } = rule;
        gen.if(_`!${satisfies}(${stringify(body)}, ${data})`, report);
      }
    });
  },
};

/** Holds `kind: schema` subschemas; validated only through `x-rules`. */
export const ruleSchemasKeyword: CodeKeywordDefinition = {
  keyword: RULE_SCHEMAS,
  schemaType: "array",
  code() {},
};

/**
 * The keyword a `$ref` between compile units becomes (units.ts). Its value is the name of a
 * variable the unit's module wrapper binds to the referenced unit's validator once every unit
 * exists, so each unit compiles alone, and its code is the same whatever else the contract holds.
 * The call passes what ajv's own `$ref` passes (paths, parent for coercion and defaults) and
 * collects the callee's errors the way ajv's `$ref` does.
 */
export const unitRefKeyword: CodeKeywordDefinition = {
  keyword: UNIT_REF,
  schemaType: "string",
  code(cxt: KeywordCxt) {
    const { gen, it } = cxt;
    const callee = new Name(cxt.schema as string);
    const context = gen.object(
      [names.instancePath, strConcat(names.instancePath, it.errorPath)],
      [names.parentData, it.parentData],
      [names.parentDataProperty, it.parentDataProperty],
      [names.rootData, names.rootData],
      [names.dynamicAnchors, names.dynamicAnchors],
    );
    cxt.result(_`${callee}(${cxt.data}, ${context})`, undefined, () => {
      const errs = _`${callee}.errors`;
      gen.assign(names.vErrors, _`${names.vErrors} === null ? ${errs} : ${names.vErrors}.concat(${errs})`);
      gen.assign(names.errors, _`${names.vErrors}.length`);
    });
  },
};
