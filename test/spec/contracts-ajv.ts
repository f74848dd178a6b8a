/**
 * ajv (JSON Schema 2020-12) set up for OpenAPI 3.1 contracts: formats from ajv-formats, OpenAPI's
 * schema keywords (`discriminator`, `xml`, `externalDocs`, `example`) and the vocabulary's x- keys as
 * annotations, and `x-rules` as the evaluating keyword from generators/src/rules.
 *
 * A contract is added whole under a key, and each schema is compiled by JSON pointer into it, so
 * `$ref`s between components resolve (cycles included) without dereferencing into a tree.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { addRuleKeyword } from "../../generators/src/rules/ajv-keyword.js";
import { loadVocabulary, type Json, type OpenApiDoc } from "./contracts-load.js";

// CommonJS interop: the default export may arrive wrapped.
type Ajv2020 = import("ajv/dist/2020.js").default;
const Ajv2020Class = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof import("ajv/dist/2020.js").default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof import("ajv-formats").default;

export const OPENAPI_ANNOTATIONS = ["discriminator", "xml", "externalDocs", "example"];

/**
 * Root members of an OpenAPI document. ajv compiles the root of a schema it resolves a pointer in,
 * so these are declared (as inert keywords) to let strict mode accept the contract's root object.
 */
const OPENAPI_ROOT = ["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags"];

/** A validator factory for the schemas of one contract. */
export class ContractValidators {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private static counter = 0;
  private readonly key: string;

  constructor(doc: OpenApiDoc) {
    this.ajv = new Ajv2020Class({
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
      allErrors: true,
    });
    addFormats(this.ajv);
    const extensions = Object.keys(loadVocabulary().placement).filter((k) => k !== "x-rules");
    this.ajv.addVocabulary([...OPENAPI_ANNOTATIONS, ...OPENAPI_ROOT, ...extensions]);
    addRuleKeyword(this.ajv as unknown as Parameters<typeof addRuleKeyword>[0]);
    this.key = `contract-${ContractValidators.counter++}.json`;
    this.ajv.addSchema(doc as object, this.key, undefined, false);
  }

  /** The validator of the schema at `pointer` (a `#/...` JSON pointer into the contract). */
  validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (!validate) {
      const fragment = pointer
        .slice(1)
        .split("/")
        .map((token) => encodeURIComponent(token))
        .join("/");
      validate = this.ajv.compile({ $ref: `${this.key}#${fragment}` });
      this.cache.set(pointer, validate);
    }
    return validate;
  }

  /** undefined when `value` satisfies the schema at `pointer`, else ajv's error text. */
  check(pointer: string, value: Json): string | undefined {
    const validate = this.validator(pointer);
    return validate(value) ? undefined : this.ajv.errorsText(validate.errors, { separator: "; " });
  }
}

/** Validators for the `$defs` of spec/vocabulary.schema.yaml, one per extension name. */
export class VocabularyValidators {
  private readonly ajv: Ajv2020;
  private readonly id: string;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    const { schema } = loadVocabulary();
    // The vocabulary carries its own `x-placement` table at the root, so it is compiled non-strictly.
    this.ajv = new Ajv2020Class({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.id = String(schema.$id);
    this.ajv.addSchema(schema as object);
  }

  check(extension: string, value: Json): string | undefined {
    let validate = this.cache.get(extension);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.id}#/$defs/${extension}` });
      this.cache.set(extension, validate);
    }
    return validate(value) ? undefined : this.ajv.errorsText(validate.errors, { separator: "; " });
  }
}
