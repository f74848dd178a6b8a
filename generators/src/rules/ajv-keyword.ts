import type { AnySchemaObject, ErrorObject, KeywordDefinition, SchemaObjCxt } from "ajv";
import { satisfiesRule, type Rule } from "@contractgen/runtime/rules";

/**
 * Registers `x-rules` as an ajv keyword evaluated at run time (used by the spec tests and wherever
 * ajv compiles in-process). `kind: schema` rules are compiled as subschemas, so their failures carry
 * ajv's own pointers; the other kinds report the rule's message.
 */
export function addRuleKeyword<A extends { addKeyword(def: KeywordDefinition): unknown }>(ajv: A): A {
  ajv.addKeyword({
    keyword: "x-rules",
    schemaType: "array",
    errors: true,
    compile(rules: Rule[], _parentSchema: AnySchemaObject, it: SchemaObjCxt) {
      const compiled = rules.map((rule) => (rule.kind === "schema" ? { rule, check: it.self.compile(rule.schema) } : { rule, check: undefined }));
      const validate = (data: unknown): boolean => {
        const errors: ErrorObject[] = [];
        for (const { rule, check } of compiled) {
          const ok = check ? check(data) === true : satisfiesRule(rule, data);
          if (!ok) {
            errors.push({
              keyword: "x-rules",
              instancePath: "",
              schemaPath: `#/x-rules/${rule.id}`,
              params: { rule: rule.id },
              message: rule.message,
            });
          }
        }
        (validate as unknown as { errors: ErrorObject[] | null }).errors = errors.length ? errors : null;
        return errors.length === 0;
      };
      return validate;
    },
  });
  return ajv;
}
