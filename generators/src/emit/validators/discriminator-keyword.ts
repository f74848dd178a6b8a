import type { CodeKeywordDefinition, KeywordCxt } from "ajv";
import { _, and, not, or, str, stringify, getProperty, type Code } from "ajv/dist/compile/codegen/index.js";
import { propertyInData } from "ajv/dist/vocabularies/code.js";

/**
 * Discriminator dispatch as an ajv code keyword, so a union with a discriminator costs one
 * property read, a few string comparisons and the one mapped schema, instead of JSON Schema's
 * `if`/`then` per mapped value (each failing `if` allocating an error object) or every branch of
 * the union. The keyword's value names the property and the cases; its sibling
 * `x-discriminator-schemas` holds one subschema per case, then the fallback that every other value
 * (not a string, not a case, property missing) is validated against.
 *
 * Everything the spec says reaches the output through ajv's code builder (`_`, `stringify`,
 * `getProperty`), which quotes strings as JSON: values such as `__proto__` or `a"b` are compared
 * with `===`, never used to index an object.
 */
export const DISPATCH = "x-discriminator-dispatch";
export const DISPATCH_SCHEMAS = "x-discriminator-schemas";

export interface DispatchCase {
  /** Discriminator values that select this case. */
  readonly values: readonly string[];
  /** The selected schema's component name, for the error message. */
  readonly name: string;
}

export interface DispatchSchema {
  readonly propertyName: string;
  readonly cases: readonly DispatchCase[];
}

export const dispatchKeyword: CodeKeywordDefinition = {
  keyword: DISPATCH,
  schemaType: "object",
  // The selected subschema's errors stay; the keyword adds one naming the case (as `if` does).
  trackErrors: true,
  error: {
    message: ({ params }) => str`must match ${params["name"]}, the schema ${params["propertyName"]} "${params["tag"]}" selects`,
    params: ({ params }) => _`{propertyName: ${params["propertyName"]}, tag: ${params["tag"]}, schema: ${params["name"]}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, it } = cxt;
    const { propertyName, cases } = cxt.schema as DispatchSchema;
    const valid = gen.let("valid", true);
    const branchValid = gen.name("_valid");
    const tag = gen.let("tag");
    // Read the way `required` and `properties` read it, so inherited members count the same.
    gen.if(and(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`, propertyInData(gen, data, propertyName, it.opts.ownProperties)), () =>
      gen.assign(tag, _`${data}${getProperty(propertyName)}`),
    );
    const validateCase = (i: number): void => {
      const branch = cxt.subschema({ keyword: DISPATCH_SCHEMAS, schemaProp: i }, branchValid);
      gen.assign(valid, branchValid);
      cxt.mergeValidEvaluated(branch, valid);
    };
    const selects = (values: readonly string[]): Code => or(...values.map((v) => _`${tag} === ${v}`));
    cases.forEach((c, i) => {
      if (i === 0) gen.if(selects(c.values));
      else gen.elseIf(selects(c.values));
      validateCase(i);
      gen.if(not(valid), () => {
        cxt.setParams({ propertyName: stringify(propertyName), tag, name: stringify(c.name) });
        cxt.error(true);
      });
    });
    // Every other value: the union as JSON Schema reads it, whose own errors say what failed.
    if (cases.length > 0) gen.else();
    validateCase(cases.length);
    if (cases.length > 0) gen.endIf();
  },
};

/** Holds the dispatch's subschemas; validated only through `x-discriminator-dispatch`. */
export const dispatchSchemasKeyword: CodeKeywordDefinition = {
  keyword: DISPATCH_SCHEMAS,
  schemaType: "array",
  code() {},
};
