/**
 * Every kind of change `diff` reports, with the severity each one carries. The severity lives here
 * and nowhere else, so a kind always means the same thing to a reader of the report or the JSON.
 */

export type Severity = "breaking" | "non-breaking" | "documentation";

/**
 * Which way a schema's data flows. The same edit means opposite things for the two: adding an enum
 * value lets clients send more (harmless) but lets servers answer with a value clients never saw
 * (breaking). `schema` is for component schemas no operation uses, where either flow may follow.
 */
export type Direction = "request" | "response" | "schema";

/** A structural schema edit, named without its direction; each maps to a kind per direction. */
export const SCHEMA_CHANGES = {
  "type-narrowed": { request: "breaking", response: "non-breaking", text: "accepts fewer types" },
  "type-widened": { request: "non-breaking", response: "breaking", text: "accepts more types" },
  "type-changed": { request: "breaking", response: "breaking", text: "type changed" },
  "nullable-added": { request: "non-breaking", response: "breaking", text: "became nullable" },
  "nullable-removed": { request: "breaking", response: "non-breaking", text: "no longer nullable" },
  "bound-tightened": { request: "breaking", response: "non-breaking", text: "a length, range, size or multiple bound got stricter" },
  "bound-relaxed": { request: "non-breaking", response: "breaking", text: "a length, range, size or multiple bound got looser" },
  "pattern-added": { request: "breaking", response: "non-breaking", text: "pattern added" },
  "pattern-changed": { request: "breaking", response: "breaking", text: "pattern changed" },
  "pattern-removed": { request: "non-breaking", response: "breaking", text: "pattern removed" },
  "format-added": { request: "breaking", response: "non-breaking", text: "format added" },
  "format-changed": { request: "breaking", response: "breaking", text: "format changed" },
  "format-removed": { request: "non-breaking", response: "breaking", text: "format removed" },
  "enum-added": { request: "breaking", response: "non-breaking", text: "restricted to an enum" },
  "enum-removed": { request: "non-breaking", response: "breaking", text: "enum restriction removed" },
  "enum-value-added": { request: "non-breaking", response: "breaking", text: "enum value added" },
  "enum-value-removed": { request: "breaking", response: "non-breaking", text: "enum value removed" },
  "property-added": { request: "non-breaking", response: "non-breaking", text: "optional property added" },
  "required-property-added": { request: "breaking", response: "non-breaking", text: "required property added" },
  "property-removed": { request: "breaking", response: "breaking", text: "property removed" },
  "property-became-required": { request: "breaking", response: "non-breaking", text: "property became required" },
  "property-became-optional": { request: "non-breaking", response: "breaking", text: "property became optional" },
  "additional-properties-restricted": { request: "breaking", response: "non-breaking", text: "additional properties no longer allowed" },
  "additional-properties-allowed": { request: "non-breaking", response: "non-breaking", text: "additional properties now allowed" },
  "variant-added": { request: "non-breaking", response: "breaking", text: "oneOf/anyOf variant or discriminator value added" },
  "variant-removed": { request: "breaking", response: "non-breaking", text: "oneOf/anyOf variant or discriminator value removed" },
  "discriminator-changed": { request: "breaking", response: "breaking", text: "discriminator property changed" },
  "default-changed": { request: "breaking", response: "documentation", text: "default value changed" },
  "constraint-changed": { request: "breaking", response: "breaking", text: "another validation keyword changed" },
} as const satisfies Record<string, { request: Severity; response: Severity; text: string }>;

export type SchemaChange = keyof typeof SCHEMA_CHANGES;
export type SchemaChangeKind = `${Direction}-${SchemaChange}`;

/** Kinds outside schemas, or that mean the same in either direction. */
export const PLAIN_CHANGES = {
  "operation-added": { severity: "non-breaking", text: "operation added" },
  "operation-removed": { severity: "breaking", text: "operation removed" },
  "operation-moved": { severity: "breaking", text: "operation moved to another method or path (same operationId)" },
  "operation-id-changed": { severity: "breaking", text: "operationId changed (generated method names follow it)" },
  "operation-deprecated": { severity: "non-breaking", text: "operation deprecated" },
  "parameter-added": { severity: "non-breaking", text: "optional parameter added" },
  "required-parameter-added": { severity: "breaking", text: "required parameter added" },
  "parameter-removed": { severity: "breaking", text: "parameter removed" },
  "parameter-became-required": { severity: "breaking", text: "parameter became required" },
  "parameter-became-optional": { severity: "non-breaking", text: "parameter became optional" },
  "parameter-deprecated": { severity: "non-breaking", text: "parameter deprecated" },
  "parameter-serialization-changed": { severity: "breaking", text: "parameter style or explode changed" },
  "path-parameter-renamed": { severity: "breaking", text: "path parameter renamed (generated argument names follow it)" },
  "request-body-added": { severity: "non-breaking", text: "optional request body added" },
  "required-request-body-added": { severity: "breaking", text: "required request body added" },
  "request-body-removed": { severity: "breaking", text: "request body removed" },
  "request-body-became-required": { severity: "breaking", text: "request body became required" },
  "request-body-became-optional": { severity: "non-breaking", text: "request body became optional" },
  "request-media-type-added": { severity: "non-breaking", text: "request media type added" },
  "request-media-type-removed": { severity: "breaking", text: "request media type removed" },
  "response-status-added": { severity: "non-breaking", text: "response status added" },
  "response-status-removed": { severity: "breaking", text: "response status removed" },
  "response-media-type-added": { severity: "non-breaking", text: "response media type added" },
  "response-media-type-removed": { severity: "breaking", text: "response media type removed" },
  "response-header-added": { severity: "non-breaking", text: "response header added" },
  "response-header-removed": { severity: "breaking", text: "response header removed" },
  "response-header-became-optional": { severity: "breaking", text: "response header became optional" },
  "response-header-became-required": { severity: "non-breaking", text: "response header became required" },
  "security-requirement-added": { severity: "breaking", text: "authentication required where none was" },
  "security-requirement-removed": { severity: "non-breaking", text: "authentication no longer required" },
  "security-alternative-added": { severity: "non-breaking", text: "another way to authenticate accepted" },
  "security-alternative-removed": { severity: "breaking", text: "a way to authenticate no longer accepted" },
  "security-scope-added": { severity: "breaking", text: "scope added to a security requirement" },
  "security-scope-removed": { severity: "non-breaking", text: "scope removed from a security requirement" },
  "security-scheme-added": { severity: "non-breaking", text: "security scheme added" },
  "security-scheme-removed": { severity: "breaking", text: "security scheme removed" },
  "security-scheme-changed": { severity: "breaking", text: "security scheme changed" },
  "server-added": { severity: "non-breaking", text: "server added" },
  "server-removed": { severity: "breaking", text: "server removed" },
  "schema-added": { severity: "non-breaking", text: "component schema added" },
  "schema-removed": { severity: "breaking", text: "component schema removed (its generated type goes with it)" },
  "schema-renamed": { severity: "documentation", text: "component schema renamed, structure unchanged" },
  "schema-deprecated": { severity: "non-breaking", text: "schema deprecated" },
  "property-deprecated": { severity: "non-breaking", text: "property deprecated" },
  "deprecation-withdrawn": { severity: "non-breaking", text: "no longer deprecated" },
  "deprecation-changed": { severity: "non-breaking", text: "deprecation or sunset date or replacement changed" },
  "rule-added": { severity: "breaking", text: "x-rules/x-limits entry added or changed" },
  "rule-removed": { severity: "non-breaking", text: "x-rules/x-limits entry removed" },
  "behaviour-extension-changed": {
    severity: "breaking",
    text: "an extension generated code acts on changed (x-hashed, x-pagination, x-stream, x-problem-type, x-unspecified)",
  },
  "description-changed": { severity: "documentation", text: "description changed" },
  "summary-changed": { severity: "documentation", text: "summary changed" },
  "title-changed": { severity: "documentation", text: "title changed" },
  "example-changed": { severity: "documentation", text: "example changed" },
  "tags-changed": { severity: "documentation", text: "tags changed" },
  "annotation-changed": { severity: "documentation", text: "an annotation without behaviour changed (x-source, externalDocs, …)" },
} as const satisfies Record<string, { severity: Severity; text: string }>;

export type PlainChangeKind = keyof typeof PLAIN_CHANGES;
export type ChangeKind = PlainChangeKind | SchemaChangeKind;

const RANK: Record<Severity, number> = { breaking: 0, "non-breaking": 1, documentation: 2 };

/** The graver of two severities. */
export function graver(a: Severity, b: Severity): Severity {
  return RANK[a] <= RANK[b] ? a : b;
}

export function severityRank(s: Severity): number {
  return RANK[s];
}

export function schemaChangeKind(direction: Direction, change: SchemaChange): SchemaChangeKind {
  return `${direction}-${change}`;
}

export function severityOf(kind: ChangeKind): Severity {
  if (Object.prototype.hasOwnProperty.call(PLAIN_CHANGES, kind)) return PLAIN_CHANGES[kind as PlainChangeKind].severity;
  const dash = kind.indexOf("-");
  const direction = kind.slice(0, dash) as Direction;
  const entry = SCHEMA_CHANGES[kind.slice(dash + 1) as SchemaChange];
  // A schema no operation uses may end up on either side of the wire: assume the worse.
  return direction === "schema" ? graver(entry.request, entry.response) : entry[direction];
}

/** Every kind with its severity and a one-line description, in code-unit order (for docs and tools). */
export function listChangeKinds(): { kind: ChangeKind; severity: Severity; description: string }[] {
  const out: { kind: ChangeKind; severity: Severity; description: string }[] = [];
  for (const [kind, v] of Object.entries(PLAIN_CHANGES)) out.push({ kind: kind as PlainChangeKind, severity: v.severity, description: v.text });
  for (const direction of ["request", "response", "schema"] as const) {
    for (const [change, v] of Object.entries(SCHEMA_CHANGES)) {
      const kind = schemaChangeKind(direction, change as SchemaChange);
      out.push({ kind, severity: severityOf(kind), description: `${direction === "schema" ? "unused component schema" : direction}: ${v.text}` });
    }
  }
  return out.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
