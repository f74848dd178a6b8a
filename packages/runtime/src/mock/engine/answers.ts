/**
 * Answers without state: the declared response a request gets (its first 2xx, or the status a
 * `Prefer: code=` names), its body (the contract's example where it validates, else seeded mock
 * data that does) and its required headers. Bodies are worked out once per operation, status,
 * example and seed and kept; every one validates against the declared response.
 */
import type { MockGenerator, MockSchema } from "../mock-data.js";
import { deriveSeed } from "../../shared/prng.js";
import type { ResponseValidation } from "../../shared/validation.js";
import { copy } from "./pointer.js";
import type { ResponsePlan } from "./table.js";

export type ValidateResponse = (operationId: string, status: number, contentType: string | undefined, body: unknown) => ResponseValidation;

/** A response chosen for a request: the plan and the status code it answers with. */
export interface Chosen {
  readonly plan: ResponsePlan;
  readonly status: number;
}

/** A body and whether it was found (undefined for a response without content). */
export interface Body {
  readonly body: unknown;
  /** False when no example validates and no value could be drawn: the body is the best there was. */
  readonly valid: boolean;
}

/**
 * The media type an answer goes out as. A contract may declare a media range (any type,
 * `application/*`, `text/*`: DocuSign's answers all declare any type); a server sends a type,
 * never a range, so a body goes out as JSON where the range takes it (text as text/plain where it
 * takes that).
 */
export function sentMediaType(declared: string, body: unknown): string {
  const range = declared.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!range.includes("*")) return declared;
  if (typeof body === "string" && (range === "*/*" || range === "text/*")) return "text/plain";
  if (range === "*/*" || range === "application/*") return "application/json";
  return declared;
}

/** `2XX` answers as 200, `default` as the asked status or 200. */
export function codeOf(plan: ResponsePlan, asked?: number): number {
  if (/^\d{3}$/.test(plan.status)) return Number(plan.status);
  if (asked !== undefined) return asked;
  if (/^[1-5]XX$/i.test(plan.status)) return Number(plan.status[0]) * 100;
  return 200;
}

const NO_PLANS: readonly ResponsePlan[] = [];

export class Answers {
  readonly #plans: Readonly<Record<string, readonly ResponsePlan[]>>;
  readonly #generator: MockGenerator;
  readonly #validate: ValidateResponse;
  readonly #seed: number;
  readonly #bodies = new Map<string, Body>();

  constructor(plans: Readonly<Record<string, readonly ResponsePlan[]>>, generator: MockGenerator, validate: ValidateResponse, seed: number) {
    this.#plans = plans;
    this.#generator = generator;
    this.#validate = validate;
    this.#seed = seed;
  }

  plansOf(operationId: string): readonly ResponsePlan[] {
    return Object.prototype.hasOwnProperty.call(this.#plans, operationId) ? (this.#plans[operationId] ?? NO_PLANS) : NO_PLANS;
  }

  /** The response for `status` as OpenAPI picks it: the exact code, its range, `default`. */
  forStatus(operationId: string, status: number): Chosen | undefined {
    const plans = this.plansOf(operationId);
    const code = String(status);
    const plan = plans.find((p) => p.status === code) ?? plans.find((p) => p.status.toUpperCase() === `${code[0]}XX`) ?? plans.find((p) => p.status === "default");
    return plan ? { plan, status } : undefined;
  }

  /** Whether the operation declares `status` by its own code or its range (not only through `default`). */
  declares(operationId: string, status: number): boolean {
    const code = String(status);
    return this.plansOf(operationId).some((p) => p.status === code || p.status.toUpperCase() === `${code[0]}XX`);
  }

  /** The success answer: the first 2xx, else `default` (as 200), else the first declared. */
  success(operationId: string): Chosen | undefined {
    const plans = this.plansOf(operationId);
    const plan = plans.find((p) => /^2/.test(p.status)) ?? plans.find((p) => p.status === "default") ?? plans[0];
    return plan ? { plan, status: codeOf(plan) } : undefined;
  }

  valid(operationId: string, chosen: Chosen, body: unknown): boolean {
    return this.#validate(operationId, chosen.status, body === undefined ? undefined : chosen.plan.contentType, body).valid;
  }

  /**
   * The body of a chosen response: the named example, the contract's first example, or data drawn
   * with `seed` (the engine's own when undefined), whichever is asked for and validates first.
   * The same arguments give the same body; callers get their own copy.
   */
  body(operationId: string, chosen: Chosen, how: { readonly example?: string; readonly seed?: number; readonly dynamic?: boolean } = {}): Body {
    const found = this.shared(operationId, chosen, how);
    return found.body === undefined ? found : { body: copy(found.body), valid: found.valid };
  }

  /**
   * The body `body` gives, not copied: the one kept for every later request, so never to be
   * changed in place (`ownPath` gives a copy to change at one place).
   */
  shared(operationId: string, chosen: Chosen, how: { readonly example?: string; readonly seed?: number; readonly dynamic?: boolean } = {}): Body {
    const plan = chosen.plan;
    if (plan.contentType === undefined) return { body: undefined, valid: true };
    const key = `${operationId}\u0000${plan.status}\u0000${chosen.status}\u0000${how.example ?? ""}\u0000${how.dynamic ? "d" : ""}\u0000${how.seed ?? ""}`;
    let found = this.#bodies.get(key);
    if (found === undefined) {
      found = this.#work(operationId, chosen, how);
      // Drawn afresh per request when dynamic: kept only while small, so a long run stays bounded.
      if (!how.dynamic || this.#bodies.size < 10_000) this.#bodies.set(key, found);
    }
    return found;
  }

  #work(operationId: string, chosen: Chosen, how: { readonly example?: string; readonly seed?: number; readonly dynamic?: boolean }): Body {
    const plan = chosen.plan;
    const ok = (b: unknown): boolean => this.valid(operationId, chosen, b);
    if (how.example !== undefined && plan.examples && Object.prototype.hasOwnProperty.call(plan.examples, how.example)) {
      const named = plan.examples[how.example];
      if (ok(named)) return { body: named, valid: true };
    }
    if (!how.dynamic && how.seed === undefined && plan.example !== undefined && ok(plan.example)) return { body: plan.example, valid: true };
    if (!how.dynamic && how.seed === undefined && plan.examples) {
      for (const value of Object.values(plan.examples)) if (ok(value)) return { body: value, valid: true };
    }
    const drawn = this.draw(plan.schema, how.seed ?? deriveSeed(this.#seed, `${operationId}/${plan.status}`), ok);
    if (drawn.valid) return drawn;
    // Nothing drawn fits: the example the contract gives, even when seeded data was asked for.
    if (plan.example !== undefined && ok(plan.example)) return { body: plan.example, valid: true };
    return drawn;
  }

  /** A value of `schema` that `accept` takes, drawn with `seed`; `valid: false` when none could be drawn. */
  draw(schema: MockSchema | undefined, seed: number, accept?: (value: unknown) => boolean): Body {
    if (schema === undefined) return { body: undefined, valid: accept ? accept(undefined) : true };
    try {
      return { body: this.#generator.generate(schema, seed, accept ? { accept } : {}), valid: true };
    } catch {
      return { body: undefined, valid: false };
    }
  }

  /** The required headers of a response (and `Location` when `location` is given), as text. */
  headers(chosen: Chosen, seed: number, location?: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const h of chosen.plan.headers ?? []) {
      const name = h.name.toLowerCase();
      if (name === "content-type" || name === "content-length") continue;
      if (name === "location" && location !== undefined) {
        out[name] = location;
        continue;
      }
      if (!h.required) continue;
      const drawn = h.schema === undefined ? { body: undefined } : this.draw(h.schema, deriveSeed(seed, `header:${name}`));
      out[name] = headerText(drawn.body);
    }
    if (location !== undefined && out["location"] === undefined && chosen.status === 201) out["location"] = location;
    return out;
  }
}

function headerText(v: unknown): string {
  if (v === undefined || v === null) return "mock";
  if (Array.isArray(v)) return v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(",");
  if (typeof v === "object")
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k},${String(x)}`)
      .join(",");
  return String(v);
}
