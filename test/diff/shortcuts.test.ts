/**
 * The diff skips what is the same on both sides (unchanged path items, components and whatever they
 * reference; schema pairs already walked clean). Skipping must never change the answer: every edit
 * here is diffed with the shortcuts and with everything walked, and the two results must be equal.
 */
import { describe, expect, it } from "vitest";
import path from "node:path";
import { diffSpecs } from "../../generators/src/diff/index.js";
import { sameJson, unchangedParts } from "../../generators/src/diff/unchanged.js";
import { loadSpec, type OpenApiDocument } from "../../generators/src/load/load.js";
import { release } from "../../generators/src/release.js";
import { buildModel } from "../../generators/src/model/build.js";
import { ROOT, things } from "./helpers.js";
import { OPERATION_CASES } from "./operation-cases.js";
import { SCHEMA_CASES } from "./schema-cases.js";

type Obj = Record<string, unknown>;

const load = async (spec: string): Promise<OpenApiDocument> => (await loadSpec(path.join(ROOT, spec), { cwd: ROOT })).document;

function expectSameAsFull(before: OpenApiDocument, after: OpenApiDocument): ReturnType<typeof diffSpecs> {
  const fast = diffSpecs(before, after);
  expect(fast).toEqual(diffSpecs(before, after, { skipUnchanged: false }));
  return fast;
}

const obj = (v: unknown): Obj => v as Obj;
const schemasOf = (doc: OpenApiDocument): Obj => obj(obj(doc["components"])["schemas"]);

/**
 * Edits of spec/core.yaml, each on a copy: operations, shared and unused schemas, webhooks, order.
 * The diff does not compare webhooks themselves (only the component schemas they use), and member
 * order is no change: those edits find nothing either way, but skip differently.
 */
const CORE_EDITS: readonly { readonly edit: string; readonly apply: (doc: OpenApiDocument) => void; readonly finds: boolean }[] = [
  {
    edit: "operation added",
    finds: true,
    apply: (d) => {
      obj(d["paths"])["/2/added"] = { get: { operationId: "addedOp", responses: { "200": { $ref: "#/components/responses/NotShownSuccess" } } } };
    },
  },
  { edit: "operation removed", finds: true, apply: (d) => delete obj(d["paths"])["/2/posts"] },
  {
    edit: "operation changed (summary and a new optional parameter)",
    finds: true,
    apply: (d) => {
      const op = opAt(d, "/oauth/request_token");
      op["summary"] = "edited";
      op["parameters"] = [...((op["parameters"] as unknown[] | undefined) ?? []), { name: "extra", in: "query", schema: { type: "string" } }];
    },
  },
  { edit: "operation security changed", finds: true, apply: (d) => (opAt(d, "/oauth/authorize")["security"] = []) },
  { edit: "shared schema: property added to Problem", finds: true, apply: (d) => (obj(obj(schemasOf(d)["Problem"])["properties"])["added"] = { type: "string" }) },
  { edit: "shared schema: Problem closed", finds: true, apply: (d) => (obj(schemasOf(d)["Problem"])["additionalProperties"] = false) },
  { edit: "shared response edited", finds: true, apply: (d) => (obj(obj(obj(d["components"])["responses"])["InvalidUserToken"])["description"] = "edited") },
  { edit: "shared parameter edited", finds: true, apply: (d) => (obj(obj(obj(d["components"])["parameters"])["UserIdPath"])["description"] = "edited") },
  { edit: "unused schema edited", finds: true, apply: (d) => (obj(schemasOf(d)["BearerTokenRequest"])["description"] = "edited") },
  { edit: "schema added", finds: true, apply: (d) => (schemasOf(d)["AddedSchema"] = { type: "object", properties: { a: { type: "string" } } }) },
  { edit: "schema removed", finds: true, apply: (d) => delete schemasOf(d)["AppOnlyBearerToken"] },
  {
    edit: "schema renamed",
    finds: true,
    apply: (d) => {
      const s = schemasOf(d);
      s["RenamedUnused"] = s["InvalidateTokenResponse"];
      delete s["InvalidateTokenResponse"];
    },
  },
  { edit: "schema a webhook uses changed", finds: true, apply: (d) => (obj(obj(schemasOf(d)["ActivityEvent"])["properties"])["added"] = { type: "integer" }) },
  { edit: "webhook added", finds: false, apply: (d) => (obj(d["webhooks"])["added"] = { post: { operationId: "addedHook", responses: { "200": { description: "ok" } } } }) },
  { edit: "webhook removed", finds: false, apply: (d) => delete obj(d["webhooks"])["activityEvent"] },
  { edit: "webhook changed", finds: false, apply: (d) => (obj(obj(obj(d["webhooks"])["filteredStreamPost"])["post"])["summary"] = "edited") },
  {
    edit: "members reordered only",
    finds: false,
    apply: (d) => {
      const s = schemasOf(d);
      s["Problem"] = Object.fromEntries(Object.entries(obj(s["Problem"])).reverse());
    },
  },
];

function opAt(doc: OpenApiDocument, at: string): Obj {
  const item = obj(obj(doc["paths"])[at]);
  return obj(item["get"] ?? item["post"]);
}

describe("the shortcuts find what the full walk finds", () => {
  it.each(CORE_EDITS)("spec/core.yaml, $edit", async ({ apply, finds }) => {
    const before = await load("spec/core.yaml");
    const after = structuredClone(before);
    apply(after);
    expect(expectSameAsFull(before, after).changes.length > 0).toBe(finds);
  });

  it("spec/core.yaml, every edit at once", async () => {
    const before = await load("spec/core.yaml");
    const after = structuredClone(before);
    for (const { apply } of CORE_EDITS) apply(after);
    expectSameAsFull(before, after);
  });

  it("every operation case", () => {
    for (const c of OPERATION_CASES) expectSameAsFull(c.old, c.new);
  });

  it("every schema case, in a request, a response and an unused component", () => {
    const plain = { type: "object" };
    for (const c of SCHEMA_CASES) {
      expectSameAsFull(things(c.old, plain), things(c.new, plain));
      expectSameAsFull(things(plain, c.old), things(plain, c.new));
    }
  });

  it("a release from the shortcuts is the release from the full walk", async () => {
    const before = await load("spec/core.yaml");
    const after = structuredClone(before);
    obj(obj(schemasOf(after)["Problem"])["properties"])["added"] = { type: "string" };
    const previous = { version: "1.0.0", contract: before, changelog: "# Changelog\n" };
    const fast = release(previous, after, "1.0.0", "spec/core.yaml");
    const full = diffSpecs(before, after, { skipUnchanged: false });
    expect(fast.bump).toBe(full.bump);
    expect(fast.version).toBe("1.1.0");
    expect(fast.changelog).toContain("Types changed: `Problem`");
  });

  it("a release given the generation's model is the release from the document alone", async () => {
    const before = await load("spec/core.yaml");
    const previous = { version: "1.0.0", contract: before, changelog: "# Changelog\n" };
    const edits: ((doc: OpenApiDocument) => void)[] = [
      () => undefined,
      (doc) => void (obj(obj(schemasOf(doc)["Problem"])["properties"])["added"] = { type: "string" }),
      (doc) => void delete obj(doc["paths"])[Object.keys(obj(doc["paths"]))[0] as string],
      (doc) => void (obj(doc["info"])["description"] = "changed"),
    ];
    for (const edit of edits) {
      const after = structuredClone(before);
      edit(after);
      const model = buildModel({ ...(await loadSpec(path.join(ROOT, "spec/core.yaml"))), document: after }, "core");
      expect(release(previous, model.document as OpenApiDocument, "1.0.0", "spec/core.yaml", model)).toEqual(release(previous, model.document as OpenApiDocument, "1.0.0", "spec/core.yaml"));
    }
  });
});

describe("which parts are unchanged", () => {
  const doc = (problem: Obj, extra: Obj = {}): Obj => ({
    paths: {
      "/a": { get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Wrapper" } } } } } } },
      "/b": { get: { responses: { "200": { description: "plain" } } } },
    },
    components: {
      schemas: {
        Problem: problem,
        Wrapper: { type: "object", properties: { problem: { $ref: "#/components/schemas/Problem" }, note: { type: "string" } } },
      },
    },
    ...extra,
  });

  it("a changed part, its referrers and the way to the change are changed; the rest is not", () => {
    const unchanged = unchangedParts(doc({ type: "object" }), doc({ type: "object", title: "t" }));
    expect(unchanged("#/paths/~1b")).toBe(true);
    expect(unchanged("#/paths/~1a")).toBe(false);
    expect(unchanged("#/components/schemas/Problem")).toBe(false);
    expect(unchanged("#/components/schemas/Wrapper")).toBe(false);
    expect(unchanged("#/components/schemas/Wrapper/properties/problem")).toBe(false);
    expect(unchanged("#/components/schemas/Wrapper/properties/note")).toBe(true);
  });

  it("a member missing on one side makes everything under its holder changed", () => {
    const unchanged = unchangedParts(doc({ type: "object", properties: { x: { type: "string" } } }), doc({ type: "object" }));
    expect(unchanged("#/components/schemas/Problem/properties/x")).toBe(false);
    expect(unchanged("#/components/schemas/Problem/properties/x/type")).toBe(false);
  });

  it("a reference above part depth is never skipped around", () => {
    const before = doc({ type: "object" }, { "x-all": { $ref: "#/components" } });
    const after = doc({ type: "string" }, { "x-all": { $ref: "#/components" } });
    expect(unchangedParts(before, after)("#/x-all")).toBe(false);
    expect(unchangedParts(before, after)("#/components")).toBe(false);
  });

  it("member order counts as a difference", () => {
    expect(sameJson({ a: 1, b: 2 }, { a: 1, b: 2 })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  });
});
