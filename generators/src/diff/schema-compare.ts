/**
 * Structural comparison of two schemas in one direction of flow. Both sides are walked together
 * through `$ref`s, so a schema moved to another component name or file compares equal; each pair of
 * locations is visited once per comparer, which ends reference cycles and reports a shared schema
 * once per operation.
 */
import { compareAnnotations } from "./annotations.js";
import type { Finding } from "./change.js";
import { schemaChangeKind, severityOf, type Direction, type SchemaChange } from "./kinds.js";
import type { Shortcuts } from "./unchanged.js";
import { accepts, formatTypes, hiddenIn, readFacts, SCALAR_KEYWORDS, type Held, type SchemaFacts } from "./schema-facts.js";
import { byCodeUnit, isObj, stableJson, type Loc, type SpecView } from "./view.js";

const UPPER_BOUNDS = new Set(["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum", "maxContains"]);
const LOWER_BOUNDS = new Set(["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum", "minContains"]);
const SCHEMA_DOC_KEYS = ["description", "title", "example", "examples", "externalDocs", "$comment", "xml"] as const;

/** The properties of a schema that travel in one direction, by its facts (which are read once per view). */
const visibleByFacts = new WeakMap<SchemaFacts, Map<Direction, ReadonlyMap<string, Loc>>>();

function visibleProperties(view: SpecView, facts: SchemaFacts, direction: Direction): ReadonlyMap<string, Loc> {
  let byDirection = visibleByFacts.get(facts);
  if (byDirection === undefined) visibleByFacts.set(facts, (byDirection = new Map()));
  let visible = byDirection.get(direction);
  if (visible === undefined) {
    visible = new Map([...facts.properties].filter(([, loc]) => !hiddenIn(direction, view.deref(loc).node)));
    byDirection.set(direction, visible);
  }
  return visible;
}

export class SchemaComparer {
  readonly findings: Finding[] = [];
  private readonly seen = new Set<string>();
  /** Pairs being walked (with shortcuts): findings so far, and whether a pair inside was cut short. */
  private readonly frames: { readonly findings: number; cut: boolean }[] = [];

  /**
   * @param clean pairs of locations already known to compare equal in this direction, shared
   *   between comparers so a schema used by many operations is walked once when it did not change.
   *   @default a fresh set
   * @param shortcuts when given, what cannot differ is not walked: locations unchanged on both
   *   sides (references included), and pairs this comparer walked in full without finding anything
   *   (added to `clean` as soon as they are done, not at `settle`). @default none: every pair is
   *   walked, the reference the shortcuts are checked against
   */
  constructor(
    private readonly oldView: SpecView,
    private readonly newView: SpecView,
    readonly direction: Direction,
    private readonly clean: Set<string> = new Set(),
    private readonly shortcuts?: Shortcuts,
  ) {}

  /**
   * Records every pair this comparer visited as equal, when it found nothing at all. Only then:
   * a pair cut short because it was already being visited (a cycle) is known equal only once the
   * whole walk found no difference.
   */
  settle(): void {
    if (this.findings.length === 0) for (const key of this.seen) this.clean.add(key);
  }

  /**
   * Compares the schema at `o` (old document) with the one at `n` (new document). `where` names the
   * place for messages (`request body application/json`); `path` is the property path inside it.
   */
  compare(o: Loc, n: Loc, where: string, path = ""): void {
    const oldAt = this.oldView.deref(o).pointer;
    const newAt = this.newView.deref(n).pointer;
    if (oldAt === newAt && this.shortcuts?.unchanged(newAt)) return;
    const key = `${oldAt}\u0000${newAt}`;
    if (this.clean.has(key)) return;
    if (this.seen.has(key)) {
      // Visited already, or being visited (a cycle): whatever it holds is not known clean here.
      const caller = this.frames.at(-1);
      if (caller) caller.cut = true;
      return;
    }
    this.seen.add(key);
    if (!this.shortcuts) return this.walk(o, n, where, path);
    const frame = { findings: this.findings.length, cut: false };
    this.frames.push(frame);
    this.walk(o, n, where, path);
    this.frames.pop();
    // Walked in full and nothing found: no other operation needs to walk this pair again.
    if (!frame.cut && this.findings.length === frame.findings) this.clean.add(key);
    else {
      const caller = this.frames.at(-1);
      if (caller && frame.cut) caller.cut = true;
    }
  }

  private walk(o: Loc, n: Loc, where: string, path: string): void {
    const of = readFacts(this.oldView, o);
    const nf = readFacts(this.newView, n);
    const subject = path === "" ? where : `${where}, property '${path}'`;

    if (of.never || nf.never) {
      if (of.never !== nf.never) this.add(of.never ? "type-widened" : "type-narrowed", "new", nf.self.pointer, `${subject}: ${of.never ? "now allows values" : "no longer allows any value"}`);
      return;
    }
    this.compareTypes(of, nf, subject);
    this.compareEnums(of, nf, subject);
    this.compareKeywords(of, nf, subject);
    this.compareObjects(of, nf, where, path, subject);
    if (of.items && nf.items) this.compare(of.items, nf.items, where, `${path}[]`);
    else if (of.items || nf.items) {
      this.add(
        of.items ? "type-widened" : "type-narrowed",
        of.items ? "old" : "new",
        (of.items ?? nf.items)?.pointer ?? nf.self.pointer,
        `${subject}: array items ${of.items ? "no longer constrained" : "now constrained"}`,
      );
    }
    this.compareVariants(of, nf, where, path, subject);
    this.findings.push(
      ...compareAnnotations(of.self, nf.self, subject, {
        docKeys: SCHEMA_DOC_KEYS,
        // A component is a schema wherever it is used; anything else inside a body is a property.
        deprecated: /^#\/components\/schemas\/[^/]+$/.test(nf.self.pointer) || path === "" ? "schema-deprecated" : "property-deprecated",
      }),
    );
  }

  /** Whether two schemas differ only in documentation, judged by a throwaway comparer. */
  sameShape(o: Loc, n: Loc): boolean {
    const probe = new SchemaComparer(this.oldView, this.newView, this.direction, new Set(), this.shortcuts);
    probe.compare(o, n, "");
    return probe.findings.every((f) => severityOf(f.kind) === "documentation");
  }

  private add(change: SchemaChange, side: "old" | "new", pointer: string, message: string): void {
    this.findings.push({ kind: schemaChangeKind(this.direction, change), side, pointer, message });
  }

  private compareTypes(of: SchemaFacts, nf: SchemaFacts, subject: string): void {
    const ot = of.types?.value;
    const nt = nf.types?.value;
    const pointer = nf.types?.pointer ?? nf.self.pointer;
    if (ot || nt) {
      const oldCoversNew = ot === undefined || (nt !== undefined && [...nt].every((t) => accepts(ot, t)));
      const newCoversOld = nt === undefined || (ot !== undefined && [...ot].every((t) => accepts(nt, t)));
      const text = `${subject}: type ${formatTypes(ot)} → ${formatTypes(nt)}`;
      if (oldCoversNew && !newCoversOld) this.add("type-narrowed", "new", pointer, text);
      else if (newCoversOld && !oldCoversNew) this.add("type-widened", "new", pointer, text);
      else if (!oldCoversNew && !newCoversOld) this.add("type-changed", "new", pointer, text);
    }
    const on = of.nullable?.value;
    const nn = nf.nullable?.value;
    if (on !== undefined && nn !== undefined && on !== nn) {
      this.add(
        nn ? "nullable-added" : "nullable-removed",
        nn ? "new" : "old",
        nn ? (nf.nullable as Held<boolean>).pointer : (of.nullable as Held<boolean>).pointer,
        `${subject}: ${nn ? "now" : "no longer"} nullable`,
      );
    }
  }

  private compareEnums(of: SchemaFacts, nf: SchemaFacts, subject: string): void {
    const oe = of.enum;
    const ne = nf.enum;
    if (!oe && !ne) return;
    if (!oe && ne) return this.add("enum-added", "new", ne.pointer, `${subject}: now limited to ${ne.value.map((v) => stableJson(v)).join(", ")}`);
    if (oe && !ne) return this.add("enum-removed", "old", oe.pointer, `${subject}: no longer limited to an enum`);
    const before = new Set((oe as Held<readonly unknown[]>).value.map(stableJson));
    const after = new Set((ne as Held<readonly unknown[]>).value.map(stableJson));
    for (const v of [...before].sort(byCodeUnit)) if (!after.has(v)) this.add("enum-value-removed", "old", (oe as Held<unknown>).pointer, `${subject}: enum value ${v} removed`);
    for (const v of [...after].sort(byCodeUnit)) if (!before.has(v)) this.add("enum-value-added", "new", (ne as Held<unknown>).pointer, `${subject}: enum value ${v} added`);
  }

  private compareKeywords(of: SchemaFacts, nf: SchemaFacts, subject: string): void {
    for (const k of SCALAR_KEYWORDS) {
      const o = of.keywords.get(k);
      const n = nf.keywords.get(k);
      // Most keywords are absent on both sides, or the same number or string.
      if (o?.value === n?.value || stableJson(o?.value) === stableJson(n?.value)) continue;
      const side = n ? "new" : "old";
      const pointer = (n ?? o)?.pointer ?? nf.self.pointer;
      const text = `${subject}: ${k} ${o === undefined ? `${stableJson(n?.value)} added` : n === undefined ? `${stableJson(o.value)} removed` : `${stableJson(o.value)} → ${stableJson(n.value)}`}`;
      const change = this.keywordChange(k, o?.value, n?.value);
      if (change) this.add(change, side, pointer, text);
      if (k === "discriminator") this.compareMapping(o?.value, n?.value, subject, o, n);
    }
  }

  /** What an edit of one scalar keyword means; undefined when it means nothing (a `false` flag added). */
  private keywordChange(k: string, o: unknown, n: unknown): SchemaChange | undefined {
    if (UPPER_BOUNDS.has(k) || LOWER_BOUNDS.has(k)) {
      // OpenAPI 3.0's exclusiveMaximum/exclusiveMinimum are flags on maximum/minimum.
      if (typeof o === "boolean" || typeof n === "boolean") {
        if ((o === true) === (n === true)) return undefined;
        return n === true ? "bound-tightened" : "bound-relaxed";
      }
      if (typeof o !== "number") return "bound-tightened";
      if (typeof n !== "number") return "bound-relaxed";
      const lower = UPPER_BOUNDS.has(k) ? n < o : n > o;
      return lower ? "bound-tightened" : "bound-relaxed";
    }
    switch (k) {
      case "multipleOf":
        if (typeof o !== "number") return "bound-tightened";
        if (typeof n !== "number") return "bound-relaxed";
        if (Number.isInteger(n / o)) return "bound-tightened";
        if (Number.isInteger(o / n)) return "bound-relaxed";
        return "constraint-changed";
      case "uniqueItems":
        if ((o === true) === (n === true)) return undefined;
        return n === true ? "bound-tightened" : "bound-relaxed";
      case "pattern":
        return o === undefined ? "pattern-added" : n === undefined ? "pattern-removed" : "pattern-changed";
      case "format":
        return o === undefined ? "format-added" : n === undefined ? "format-removed" : "format-changed";
      case "default":
        return "default-changed";
      case "discriminator": {
        const name = (v: unknown): unknown => (isObj(v) ? v["propertyName"] : undefined);
        return name(o) === name(n) ? undefined : "discriminator-changed";
      }
      default:
        return "constraint-changed";
    }
  }

  /** Discriminator values are the variants a client or server must know how to tell apart. */
  private compareMapping(o: unknown, n: unknown, subject: string, oh?: Held<unknown>, nh?: Held<unknown>): void {
    const keys = (v: unknown): Set<string> => new Set(isObj(v) && isObj(v["mapping"]) ? Object.keys(v["mapping"]) : []);
    const before = keys(o);
    const after = keys(n);
    for (const k of [...before].sort(byCodeUnit)) {
      if (!after.has(k) && after.size > 0 && oh) this.add("variant-removed", "old", `${oh.pointer}/mapping`, `${subject}: discriminator value '${k}' removed`);
    }
    for (const k of [...after].sort(byCodeUnit)) {
      if (!before.has(k) && before.size > 0 && nh) this.add("variant-added", "new", `${nh.pointer}/mapping`, `${subject}: discriminator value '${k}' added`);
    }
  }

  private compareObjects(of: SchemaFacts, nf: SchemaFacts, where: string, path: string, subject: string): void {
    const closedOld = of.additional?.node === false;
    const closedNew = nf.additional?.node === false;
    if (!closedOld && closedNew) this.add("additional-properties-restricted", "new", (nf.additional as Loc).pointer, `${subject}: additional properties no longer allowed`);
    else if (closedOld && !closedNew) this.add("additional-properties-allowed", "new", nf.additional?.pointer ?? nf.self.pointer, `${subject}: additional properties now allowed`);
    else if (of.additional && nf.additional && isObj(this.oldView.deref(of.additional).node) && isObj(this.newView.deref(nf.additional).node)) {
      this.compare(of.additional, nf.additional, where, path === "" ? "*" : `${path}.*`);
    }

    const before = visibleProperties(this.oldView, of, this.direction);
    const after = visibleProperties(this.newView, nf, this.direction);
    const names = [...new Set([...before.keys(), ...after.keys()])].sort(byCodeUnit);
    for (const name of names) {
      const o = before.get(name);
      const n = after.get(name);
      const prop = path === "" ? name : `${path}.${name}`;
      if (o && !n) {
        this.add("property-removed", "old", o.pointer, `${where}: property '${prop}' removed`);
      } else if (!o && n) {
        const required = nf.required.has(name);
        this.add(required ? "required-property-added" : "property-added", "new", n.pointer, `${where}: ${required ? "required" : "optional"} property '${prop}' added`);
      } else if (o && n) {
        const was = of.required.has(name);
        const is = nf.required.has(name);
        if (was !== is) this.add(is ? "property-became-required" : "property-became-optional", "new", n.pointer, `${where}: property '${prop}' became ${is ? "required" : "optional"}`);
        this.compare(o, n, where, prop);
      }
    }
  }

  /**
   * Pairs oneOf/anyOf variants: the same `$ref` first, then the same shape under another name, then
   * the last one left on each side (an edited variant); whatever remains was added or removed.
   */
  private compareVariants(of: SchemaFacts, nf: SchemaFacts, where: string, path: string, subject: string): void {
    const ov = of.variants;
    const nv = nf.variants;
    if (!ov && !nv) return;
    if (!ov || !nv || ov.keyword !== nv.keyword) {
      const text = ov && nv ? `${ov.keyword} became ${nv.keyword}` : ov ? `${ov.keyword} removed` : `${(nv as NonNullable<typeof nv>).keyword} introduced`;
      this.add("constraint-changed", nv ? "new" : "old", (nv ?? ov)?.pointer ?? nf.self.pointer, `${subject}: ${text}`);
      return;
    }
    const oldLeft = [...ov.list];
    const newLeft = [...nv.list];
    const pairs: [Loc, Loc][] = [];
    const take = (match: (o: Loc, n: Loc) => boolean): void => {
      for (let i = 0; i < oldLeft.length;) {
        const o = oldLeft[i] as Loc;
        const j = newLeft.findIndex((n) => match(o, n));
        if (j === -1) {
          i++;
          continue;
        }
        pairs.push([o, newLeft[j] as Loc]);
        oldLeft.splice(i, 1);
        newLeft.splice(j, 1);
      }
    };
    const refOf = (l: Loc): unknown => (isObj(l.node) ? l.node["$ref"] : undefined);
    take((o, n) => refOf(o) !== undefined && refOf(o) === refOf(n));
    take((o, n) => this.sameShape(o, n));
    if (oldLeft.length === 1 && newLeft.length === 1) pairs.push([oldLeft.pop() as Loc, newLeft.pop() as Loc]);
    for (const [o, n] of pairs) this.compare(o, n, where, path);
    for (const o of oldLeft) this.add("variant-removed", "old", o.pointer, `${subject}: ${ov.keyword} variant ${variantName(o)} removed`);
    for (const n of newLeft) this.add("variant-added", "new", n.pointer, `${subject}: ${nv.keyword} variant ${variantName(n)} added`);
  }
}

function variantName(l: Loc): string {
  const ref = isObj(l.node) ? l.node["$ref"] : undefined;
  if (typeof ref === "string") return `'${ref.slice(ref.lastIndexOf("/") + 1)}'`;
  return `#${l.pointer.slice(l.pointer.lastIndexOf("/") + 1)}`;
}
