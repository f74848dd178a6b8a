/**
 * Re-scaffolding: brings `src/handlers/` in line with the contract with ts-morph, keeping every
 * byte the user wrote. All files are analysed first (and any that does not parse refuses the whole
 * run); then each file gets its insertions as batched structures (`addMethods`, `addImportDeclarations`,
 * `addSpreadAssignments`) and its markers as one `applyTextChanges`, and is printed once. Nothing
 * is written here: the caller writes every changed file after all of them succeeded.
 */
import {
  IndentationText,
  NewLineKind,
  Project,
  QuoteKind,
  StructureKind,
  SyntaxKind,
  type Node,
  type ImportDeclarationStructure,
  type MethodDeclarationStructure,
  type OptionalKind,
  type SourceFile,
} from "ts-morph";
import { commentText } from "../emit/ts.js";
import type { PlannedHandler, PlannedModule, ScaffoldPlan } from "./plan.js";
import { analyseFile, ScaffoldRefusal, STALE_MARKER, syntaxRefusals, type AnalysedFile, type FoundMember, type Refusal } from "./analyze.js";

export const HANDLERS_DIR = "src/handlers";
export const INDEX_FILE = `${HANDLERS_DIR}/index.ts`;

/** What a handler of the contract (or one left over from an older contract) is in the project. */
export interface HandlerStatus {
  readonly methodName: string;
  readonly operationId?: string;
  readonly method?: string;
  readonly path?: string;
  /** Where it is (or, when missing, where scaffold puts it). */
  readonly file: string;
  readonly state: "implemented" | "stub" | "missing" | "stale";
}

export interface ReconcileResult {
  /** Files to write: project-relative path → full new text (only files that change). */
  readonly writes: ReadonlyMap<string, string>;
  readonly added: readonly { readonly file: string; readonly methodName: string }[];
  readonly newModules: readonly string[];
  /** Handlers whose operation left the contract (marked now or before). */
  readonly stale: readonly { readonly file: string; readonly methodName: string; readonly markedNow: boolean }[];
  /** Handlers implemented in another module than their tag's (a moved tag): kept where they are. */
  readonly moved: readonly { readonly file: string; readonly methodName: string; readonly tagFile: string }[];
  /** Stale markers removed because the operation is back in the contract. */
  readonly unmarked: readonly { readonly file: string; readonly methodName: string }[];
  readonly status: readonly HandlerStatus[];
}

/** Text of the fresh files scaffold fills from templates when a module or the index is missing. */
export interface FreshTexts {
  module(m: PlannedModule): string;
  index(): string;
  /** Where a fresh module's text came from, for the error when a template no longer fits. */
  readonly moduleTemplateFile: string;
  readonly indexTemplateFile: string;
}

const moduleFile = (m: PlannedModule): string => `${HANDLERS_DIR}/${m.file}.ts`;

function newProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true },
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double, newLineKind: NewLineKind.LineFeed, insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true },
  });
}

function stubStructure(h: PlannedHandler): OptionalKind<MethodDeclarationStructure> {
  const op = h.operation;
  const about = [`${op.method.toUpperCase()} ${op.path}`, op.summary].filter((x): x is string => x !== undefined && x.trim() !== "").join(": ");
  return {
    kind: StructureKind.Method,
    // Spec text reaches the comment only through the escaping layer; names are vetted identifiers.
    docs: [{ description: commentText(about) }],
    isAsync: true,
    name: h.methodName,
    parameters: [{ name: "input", type: `api.${h.inputType}` }],
    returnType: `Promise<api.${h.replyType}>`,
    statements: ["return notImplemented(input);"],
  };
}

/**
 * Compares the plan with `existing` (project-relative path → text of every `.ts` file in
 * `src/handlers/`) and returns the edits. Throws `ScaffoldRefusal` (nothing to write) when a file
 * does not parse or lacks the object scaffold must add to.
 */
export function reconcile(plan: ScaffoldPlan, existing: ReadonlyMap<string, string>, fresh: FreshTexts, serverModule: string): ReconcileResult {
  const project = newProject();
  const loaded = [...existing].map(([path, text]) => ({ path, sourceFile: project.createSourceFile(path, text) }));
  const broken = syntaxRefusals(project, loaded);
  if (broken.length > 0) throw new ScaffoldRefusal(broken);

  const files = new Map<string, AnalysedFile>(loaded.map((f) => [f.path, analyseFile(f.path, f.sourceFile)]));
  const index = files.get(INDEX_FILE);
  // Every handler the project has, wherever it lives (a moved tag keeps its handlers in place).
  const have = new Map<string, { file: string; member: FoundMember }>();
  for (const f of files.values()) {
    if (f.path === INDEX_FILE) continue;
    for (const o of f.objects.values()) for (const member of o.members) if (!have.has(member.name)) have.set(member.name, { file: f.path, member });
  }
  const planned = new Map<string, { h: PlannedHandler; m: PlannedModule }>();
  for (const m of plan.modules) for (const h of m.handlers) planned.set(h.methodName, { h, m });

  const refusals: Refusal[] = [];
  const adds = new Map<PlannedModule, PlannedHandler[]>();
  const created: PlannedModule[] = [];
  for (const m of plan.modules) {
    const missing = m.handlers.filter((h) => !have.has(h.methodName));
    if (missing.length === 0) continue;
    adds.set(m, missing);
    const file = files.get(moduleFile(m));
    if (!file) created.push(m);
    else if (!file.objects.has(m.exportName))
      refusals.push(noObject(file.path, m.exportName, `the new handlers of tag ${JSON.stringify(m.tag)} (${missing.map((h) => h.methodName).join(", ")}) go there`));
  }
  if (created.length > 0 && index && !index.objects.has("handlers")) {
    refusals.push(noObject(INDEX_FILE, "handlers", `the new module(s) ${created.map((m) => m.file).join(", ")} are spread into it`));
  }
  if (refusals.length > 0) throw new ScaffoldRefusal(refusals);

  // Fresh files come from templates; each must parse and declare the object scaffold fills.
  const freshFile = (path: string, text: string, exportName: string, template: string): AnalysedFile => {
    const sourceFile = project.createSourceFile(path, text);
    const bad = syntaxRefusals(project, [{ path, sourceFile }]);
    const file = analyseFile(path, sourceFile);
    if (bad.length > 0 || !file.objects.has(exportName)) {
      throw new ScaffoldRefusal([
        {
          file: template,
          line: 1,
          col: 1,
          message: `template no longer fits: filled, it ${bad.length > 0 ? `does not parse (${bad[0]?.message ?? ""})` : `declares no \`export const ${exportName} = { … }\``}`,
          fix: "compare it with the built-in template in templates/scaffold/ and restore the exported object",
        },
      ]);
    }
    files.set(path, file);
    return file;
  };
  const touched = new Set<string>();
  for (const m of created) freshFile(moduleFile(m), fresh.module(m), m.exportName, fresh.moduleTemplateFile);
  const indexFile = index ?? (plan.modules.length > 0 ? freshFile(INDEX_FILE, fresh.index(), "handlers", fresh.indexTemplateFile) : undefined);
  // A new index spreads every module there is; an existing one gets only the modules created now.
  const indexed = index ? created : plan.modules.filter((m) => files.has(moduleFile(m)));
  if (!index && indexFile) touched.add(INDEX_FILE);

  // Stale: members whose operation is gone. Unmark: our marker on a handler whose operation is back.
  const stale: { file: string; methodName: string; markedNow: boolean; member: FoundMember }[] = [];
  const unmarked: { file: string; methodName: string; member: FoundMember }[] = [];
  for (const [name, { file, member }] of have) {
    if (!planned.has(name)) stale.push({ file, methodName: name, markedNow: member.marker === undefined, member });
    else if (member.marker) unmarked.push({ file, methodName: name, member });
  }

  // Edits: structures first (ts-morph keeps analysed nodes valid across its own insertions) …
  const added: { file: string; methodName: string }[] = [];
  const lastAdded: { path: string; node: Node }[] = [];
  for (const [m, handlers] of adds) {
    const file = files.get(moduleFile(m)) as AnalysedFile;
    ensureImports(file, serverModule);
    const nodes = file.objects.get(m.exportName)?.object.addMethods(handlers.map(stubStructure)) ?? [];
    const last = nodes[nodes.length - 1];
    if (last) lastAdded.push({ path: file.path, node: last });
    for (const h of handlers) added.push({ file: file.path, methodName: h.methodName });
    touched.add(file.path);
  }
  if (indexFile && indexed.length > 0) {
    indexFile.sourceFile.addImportDeclarations(indexed.map((m): OptionalKind<ImportDeclarationStructure> => ({ namedImports: [m.exportName], moduleSpecifier: `./${m.file}.js` })));
    const spreads = indexFile.objects.get("handlers")?.object.addSpreadAssignments(indexed.map((m) => ({ expression: m.exportName }))) ?? [];
    const last = spreads[spreads.length - 1];
    if (last) lastAdded.push({ path: INDEX_FILE, node: last });
    touched.add(INDEX_FILE);
  }
  // … then every marker of a file as one text change list, at the nodes' current positions.
  const changes = new Map<SourceFile, { span: { start: number; length: number }; newText: string }[]>();
  const change = (path: string, c: { span: { start: number; length: number }; newText: string }): void => {
    const sf = (files.get(path) as AnalysedFile).sourceFile;
    changes.set(sf, [...(changes.get(sf) ?? []), c]);
    touched.add(path);
  };
  // A trailing comma after what scaffold appended, so the next append adds lines and edits none.
  for (const { path, node } of lastAdded) {
    if (node.getNextSibling()?.getKind() !== SyntaxKind.CommaToken) change(path, { span: { start: node.getEnd(), length: 0 }, newText: "," });
  }
  for (const s of stale.filter((x) => x.markedNow)) {
    const start = s.member.node.getStart();
    const indent = s.member.node.getIndentationText();
    const text = commentText(`${STALE_MARKER} operation ${JSON.stringify(s.methodName)} is no longer in the contract; delete this handler when nothing needs it.`);
    change(s.file, { span: { start, length: 0 }, newText: `/** ${text} */\n${indent}` });
  }
  for (const u of unmarked) {
    // Remove the marker and the line break and indentation scaffold put after it; anything the
    // user wrote between it and the handler stays.
    const marker = u.member.marker as { start: number; end: number };
    const after = /^[ \t]*\r?\n[ \t]*/.exec((files.get(u.file) as AnalysedFile).sourceFile.getFullText().slice(marker.end))?.[0].length ?? 0;
    change(u.file, { span: { start: marker.start, length: marker.end - marker.start + after }, newText: "" });
  }
  for (const [sf, list] of changes) sf.applyTextChanges(list);

  const writes = new Map<string, string>();
  for (const path of [...touched].sort()) writes.set(path, (files.get(path) as AnalysedFile).sourceFile.getFullText());
  return {
    writes,
    added,
    newModules: created.map(moduleFile),
    stale: stale.map(({ file, methodName, markedNow }) => ({ file, methodName, markedNow })),
    moved: [...have].flatMap(([name, { file }]) => {
      const p = planned.get(name);
      return p && moduleFile(p.m) !== file ? [{ file, methodName: name, tagFile: moduleFile(p.m) }] : [];
    }),
    unmarked: unmarked.map(({ file, methodName }) => ({ file, methodName })),
    status: statusOf(plan, have, stale),
  };
}

function noObject(file: string, exportName: string, why: string): Refusal {
  return {
    file,
    line: 1,
    col: 1,
    message: `has no \`export const ${exportName} = { … }\` object: ${why}`,
    fix: `restore the exported object literal \`${exportName}\` (scaffold adds to it and changes nothing else), or move this file away to have it created again`,
  };
}

/** A module that lost its `api` namespace or `notImplemented` import gets them back (batched). */
function ensureImports(file: AnalysedFile, serverModule: string): void {
  const imports: OptionalKind<ImportDeclarationStructure>[] = [];
  if (!file.importedNames.has("api")) imports.push({ isTypeOnly: true, namespaceImport: "api", moduleSpecifier: serverModule });
  if (!file.importedNames.has("notImplemented")) imports.push({ namedImports: ["notImplemented"], moduleSpecifier: "@contractgen/runtime/server" });
  if (imports.length > 0) file.sourceFile.insertImportDeclarations(0, imports);
}

function statusOf(plan: ScaffoldPlan, have: ReadonlyMap<string, { file: string; member: FoundMember }>, stale: readonly { file: string; methodName: string }[]): HandlerStatus[] {
  const out: HandlerStatus[] = [];
  for (const m of plan.modules) {
    for (const h of m.handlers) {
      const found = have.get(h.methodName);
      out.push({
        methodName: h.methodName,
        operationId: h.operation.id,
        method: h.operation.method.toUpperCase(),
        path: h.operation.path,
        file: found?.file ?? moduleFile(m),
        state: found ? (found.member.stub ? "stub" : "implemented") : "missing",
      });
    }
  }
  for (const s of stale) out.push({ methodName: s.methodName, file: s.file, state: "stale" });
  return out;
}
