/**
 * Constructs real specs use, one small fixture each (test/fixtures/constructs/): every fixture is
 * generated, type-checked under the generated packages' strict settings, and then something
 * specific about the output is asserted — a type shape (with `@ts-expect-error` for what it must
 * refuse), a validator verdict, or the request a client method puts on the wire.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildFixtures, recordingFetch, type Built, type Fixture } from "./support.js";

type Validators = {
  schemaValidators: Record<string, ((data: unknown) => boolean) & { errors?: unknown }>;
  validateRequest: (id: string, input: Record<string, unknown>) => { valid: boolean; value?: Record<string, unknown>; problem?: { errors: { message: string }[] } };
  validateResponse: (id: string, response: { status: number; contentType?: string; body: unknown }) => { valid: boolean; errors?: unknown[] };
};
type AnyClient = Record<string, (args?: Record<string, unknown>) => Promise<unknown>>;

const FIXTURES: Fixture[] = [
  {
    name: "recursion",
    spec: "recursion.yaml",
    assertions: `
import type { JsonValue, TreeNode, Person, Forest, NullableJson } from "../recursion/src/types.js";
export const tree: TreeNode = { name: "root", children: [{ name: "leaf", children: [] , parent: null }] };
export const person: Person = { name: "Ada", employer: { staff: [{ name: "Bob", employer: { staff: [] } }] } };
export const json: JsonValue = { a: [1, "two", null, { b: [true] }] };
export const forest: Forest = ["oak", ["pine", ["fir"]]];
export const nullable: NullableJson = null;
export const nested: NullableJson = ["x", ["y", null]];
// @ts-expect-error children are TreeNodes
export const badTree: TreeNode = { name: "root", children: ["leaf"] };
// @ts-expect-error a JsonValue array holds JsonValues, not functions
export const badJson: JsonValue = [() => 1];
// @ts-expect-error a Forest holds strings and forests
export const badForest: Forest = [1];
`,
  },
];

let built: Built;
beforeAll(async () => {
  built = await buildFixtures(FIXTURES);
}, 300_000);

const fixtureDiagnostics = (name: string): readonly string[] => [...(built.diagnostics.get(name) ?? []), ...(built.diagnostics.get("") ?? [])];

describe.each(FIXTURES.map((f) => f.name))("%s", (name) => {
  it("generates and type-checks (with its type assertions)", () => {
    expect(fixtureDiagnostics(name)).toEqual([]);
  });
});

describe("circular and recursive schemas", () => {
  it("validate nested values through every cycle and reject a wrong value deep inside", async () => {
    const v = await built.load<Validators>("recursion", "validators");
    const { TreeNode, JsonValue, Forest, NullableJson } = v.schemaValidators as Record<string, (d: unknown) => boolean>;
    expect(TreeNode!({ name: "a", children: [{ name: "b", children: [{ name: "c" }] }], parent: null })).toBe(true);
    expect(TreeNode!({ name: "a", children: [{ name: "b", children: [{ nom: "c" }] }] })).toBe(false);
    expect(JsonValue!({ a: [1, "x", null, { b: [true, []] }] })).toBe(true);
    expect(Forest!(["a", ["b", ["c"]]])).toBe(true);
    expect(Forest!(["a", [1]])).toBe(false);
    // `type: "null"` beside oneOf reads as "null or one of the branches".
    expect(NullableJson!(null)).toBe(true);
    expect(NullableJson!(["x", [null]])).toBe(true);
    expect(NullableJson!(5)).toBe(false);
  });

  it("types recursion through a top-level array as a named interface, not an eager cycle", () => {
    const types = built.source("recursion", "src/types.ts");
    expect(types).toMatch(/export interface JsonValueArray extends Array<\s*components\["schemas"\]\["JsonValue"\]\s*> \{\}/);
    expect(types).toMatch(/export interface (ForestArray|GroveArray) extends Array</);
  });

  it("sends and receives a recursive body through the client", async () => {
    const { createRecursionClient } = await built.load<{ createRecursionClient: (o: object) => AnyClient }>("recursion", "client");
    const tree = { name: "root", children: [{ name: "leaf", children: [] }] };
    const rec = recordingFetch((req) => req.json().then((b) => Response.json(b)));
    const client = createRecursionClient({ baseUrl: "https://api.test", fetch: rec.fetch });
    expect(await client["createTree"]!({ body: tree })).toEqual(tree);
    expect(rec.calls[0]?.url).toBe("https://api.test/trees");
    expect(JSON.parse(rec.calls[0]?.body ?? "null")).toEqual(tree);
  });
});
