/**
 * The read-only half of re-scaffolding: parse the user's handler modules with ts-morph, refuse any
 * that does not parse, and find the exported handler objects and what they hold. Every question is
 * answered here, before the first edit (ts-morph's advice: analysis, then manipulation).
 */
import { Node, type ObjectLiteralExpression, type ObjectLiteralElementLike, type Project, type SourceFile } from "ts-morph";

/** The marker scaffold writes on a handler whose operation left the contract. */
export const STALE_MARKER = "@deprecated contractgen:";

/** A located reason the scaffold will not edit a file; nothing is written when there is one. */
export interface Refusal {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly fix: string;
}

export class ScaffoldRefusal extends Error {
  constructor(readonly issues: readonly Refusal[]) {
    super(issues.map(formatRefusal).join("\n"));
    this.name = "ScaffoldRefusal";
  }
}

export function formatRefusal(r: Refusal): string {
  return `${r.file}:${r.line}:${r.col}\n  error: ${r.message}\n  fix: ${r.fix}`;
}

/** One member of an exported handler object. */
export interface FoundMember {
  readonly name: string;
  readonly node: ObjectLiteralElementLike;
  /** Still the stub scaffold wrote (its body calls `notImplemented`). */
  readonly stub: boolean;
  /** The range of scaffold's own `@deprecated contractgen:` comment, when it carries one. */
  readonly marker?: { readonly start: number; readonly end: number };
}

export interface FoundObject {
  readonly exportName: string;
  readonly object: ObjectLiteralExpression;
  readonly members: readonly FoundMember[];
}

export interface AnalysedFile {
  /** Path relative to the project, forward slashes (`src/handlers/posts.ts`). */
  readonly path: string;
  readonly sourceFile: SourceFile;
  readonly objects: ReadonlyMap<string, FoundObject>;
  /** Local names bound by imports (to add `api`/`notImplemented` only when absent). */
  readonly importedNames: ReadonlySet<string>;
}

/** Refuses files with syntax errors: editing a file the parser misread could lose the user's code. */
export function syntaxRefusals(project: Project, files: readonly { path: string; sourceFile: SourceFile }[]): Refusal[] {
  const out: Refusal[] = [];
  // The language service answers per file and incrementally; a Program would be rebuilt per new file.
  const service = project.getLanguageService().compilerObject;
  for (const f of files) {
    // The first error is the one to fix; the parser's later ones mostly follow from it.
    const all = service.getSyntacticDiagnostics(f.sourceFile.getFilePath());
    const d = all[0];
    if (!d) continue;
    const { line, column } = f.sourceFile.getLineAndColumnAtPos(d.start);
    const text = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
    const more = all.length > 1 ? ` (${all.length - 1} more syntax error(s) after it)` : "";
    out.push({
      file: f.path,
      line,
      col: column,
      message: `does not parse: ${text}${more}; scaffold edits no file while one does not parse`,
      fix: "fix the syntax error (or restore the file from version control) and run scaffold again; nothing was changed",
    });
  }
  return out;
}

function unwrap(node: Node | undefined): ObjectLiteralExpression | undefined {
  let n = node;
  while (n && (Node.isSatisfiesExpression(n) || Node.isAsExpression(n) || Node.isParenthesizedExpression(n))) n = n.getExpression();
  return n && Node.isObjectLiteralExpression(n) ? n : undefined;
}

function memberName(m: ObjectLiteralElementLike): string | undefined {
  if (Node.isSpreadAssignment(m)) return undefined;
  const nameNode = m.getNameNode();
  if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) return nameNode.getLiteralValue();
  if (Node.isIdentifier(nameNode)) return nameNode.getText();
  return undefined;
}

function analyseMember(m: ObjectLiteralElementLike, name: string): FoundMember {
  const body = Node.isMethodDeclaration(m) ? (m.getBody()?.getText() ?? "") : m.getText();
  // Leading comments, not JSDoc nodes: a handler written as `name: async (input) => …` has no JSDoc node.
  const ours = m.getLeadingCommentRanges().find((c) => c.getText().includes(STALE_MARKER));
  return {
    name,
    node: m,
    stub: /\bnotImplemented\(/.test(body),
    ...(ours ? { marker: { start: ours.getPos(), end: ours.getEnd() } } : {}),
  };
}

/** Every `export const xHandlers = { … }` (optionally `satisfies …` or `as …`) and its members. */
export function analyseFile(path: string, sourceFile: SourceFile): AnalysedFile {
  const objects = new Map<string, FoundObject>();
  for (const statement of sourceFile.getVariableStatements()) {
    if (!statement.isExported()) continue;
    for (const decl of statement.getDeclarations()) {
      // Handler objects are named `…Handlers` (`handlers` in the index); other exported objects are the user's own.
      if (!/(^h|H)andlers$/.test(decl.getName())) continue;
      const object = unwrap(decl.getInitializer());
      if (!object) continue;
      const members: FoundMember[] = [];
      for (const m of object.getProperties()) {
        const name = memberName(m);
        if (name !== undefined) members.push(analyseMember(m, name));
      }
      objects.set(decl.getName(), { exportName: decl.getName(), object, members });
    }
  }
  const importedNames = new Set<string>();
  for (const imp of sourceFile.getImportDeclarations()) {
    const ns = imp.getNamespaceImport();
    if (ns) importedNames.add(ns.getText());
    const def = imp.getDefaultImport();
    if (def) importedNames.add(def.getText());
    for (const n of imp.getNamedImports()) importedNames.add((n.getAliasNode() ?? n.getNameNode()).getText());
  }
  return { path, sourceFile, objects, importedNames };
}
