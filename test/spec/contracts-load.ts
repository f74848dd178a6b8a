/**
 * Loading helpers for the contract tests: which spec files exist, their bundled form (cached), and
 * the x- extension vocabulary. Every `spec/*.yaml` except the vocabulary itself is a contract, so
 * contracts added later are covered without touching the tests.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parse } from "yaml";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SPEC_DIR = join(ROOT, "spec");
export const VOCABULARY_FILE = join(SPEC_DIR, "vocabulary.schema.yaml");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** An OpenAPI document, loosely typed: the tests inspect it as plain data. */
export type OpenApiDoc = JsonObject;

/** File names (not paths) of every contract: `spec/*.yaml` except the vocabulary schema and the workflow documents (`*.arazzo.yaml`). */
export function contractFiles(): string[] {
  return readdirSync(SPEC_DIR)
    .filter((name) => name.endsWith(".yaml") && !name.endsWith(".arazzo.yaml") && join(SPEC_DIR, name) !== VOCABULARY_FILE)
    .sort();
}

export const contractPath = (name: string): string => join(SPEC_DIR, name);

const bundled = new Map<string, Promise<OpenApiDoc>>();

/**
 * The contract with every external `$ref` brought in (swagger-parser `bundle`): internal refs stay,
 * so named components keep their names, and cycles stay representable.
 */
export function loadBundled(name: string): Promise<OpenApiDoc> {
  let doc = bundled.get(name);
  if (!doc) {
    doc = SwaggerParser.bundle(contractPath(name)) as unknown as Promise<OpenApiDoc>;
    bundled.set(name, doc);
  }
  return doc;
}

export interface Vocabulary {
  /** extension name → places it may appear */
  placement: Record<string, string[]>;
  /** the whole vocabulary document (a JSON Schema with `$defs`) */
  schema: JsonObject;
}

let vocabulary: Vocabulary | undefined;

export function loadVocabulary(): Vocabulary {
  if (!vocabulary) {
    const schema = parse(readFileSync(VOCABULARY_FILE, "utf8")) as JsonObject;
    const placement = schema["x-placement"] as Record<string, string[]>;
    vocabulary = { placement, schema };
  }
  return vocabulary;
}

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON pointer escaping of one reference token. */
export const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** Resolves an internal `#/...` reference of the bundled document. */
export function resolvePointer(doc: OpenApiDoc, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}
