/**
 * Constructs real specs use, one small fixture each (test/fixtures/constructs/): every fixture is
 * generated, type-checked under the generated packages' strict settings, and then something
 * specific about the output is asserted — a type shape (with `@ts-expect-error` for what it must
 * refuse), a validator verdict, or the request a client method puts on the wire.
 */
import { beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { runCli, workspaceTmpDir } from "../generator/helpers.js";
import { CONSTRUCTS, buildFixtures, recordingFetch, type Built, type Fixture } from "./support.js";

type Validators = {
  schemaValidators: Record<string, ((data: unknown) => boolean) & { errors?: unknown }>;
  validateRequest: (id: string, input: Record<string, unknown>) => { valid: boolean; value?: Record<string, unknown>; problem?: { errors: { message: string }[] } };
  validateResponse: (id: string, status: number, contentType: string | undefined, body: unknown) => { valid: boolean; errors?: unknown[] };
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
  {
    name: "polymorphism",
    spec: "polymorphism.yaml",
    assertions: `
import type { Cat, Dog, Pet, Shape, Vehicle, Payment, Contact } from "../polymorphism/src/types.js";
export const cat: Cat = { petType: "cat", name: "Tom", livesLeft: 9 };
export const dog: Dog = { petType: "dog", name: "Rex", barks: true };
export const pet: Pet = { petType: "cat", name: "Tom" };
export const shape: Shape = { kind: "circle", radius: 1 };
export const vehicle: Vehicle = { vehicleType: "Car", doors: 4 };
export const payment: Payment = { iban: "DE00" };
export const contact: Contact = { email: "a@b.c", phone: "1" };
export function area(s: Shape): number {
  return s.kind === "circle" ? Math.PI * s.radius ** 2 : s.side ** 2;
}
// @ts-expect-error a circle has no side
export const badShape: Shape = { kind: "circle", side: 1 };
// @ts-expect-error Cat requires livesLeft
export const badCat: Cat = { petType: "cat", name: "Tom" };
`,
  },
  {
    name: "defaults",
    spec: "defaults.yaml",
    assertions: `
import type { CreateMatcherArgs, CreateMatcherResult } from "../defaults/src/client.js";
import type { CreateMatcherInput, CreateMatcherReply } from "../defaults/src/server.js";
// A call leaves out the defaulted members (isEqual, and weight through its $ref), and the query count.
export const call: CreateMatcherArgs = { body: { pattern: "a*" } };
export const withValues: CreateMatcherArgs = { count: 3, body: { pattern: "a*", isEqual: false, weight: 2 } };
// The server's handler sees the body as it was sent: the defaults may be absent there too.
export const isEqualOf = (i: CreateMatcherInput): boolean | undefined => i.body.isEqual;
// A response carries them (the server filled them in), as openapi-typescript types it.
export const stored: CreateMatcherResult = { pattern: "a*", isEqual: true, weight: 1 };
// @ts-expect-error a response has isEqual
export const partial: CreateMatcherResult = { pattern: "a*", weight: 1 };
export const reply: CreateMatcherReply = { status: 201, body: { pattern: "a*", isEqual: true, weight: 1 } };
// @ts-expect-error pattern has no default and is required
export const noPattern: CreateMatcherArgs = { body: { isEqual: true } };
`,
  },
  {
    name: "nullable-30",
    spec: "nullable-30.yaml",
    assertions: `
import type { User } from "../nullable-30/src/types.js";
import type { CreateTeamArgs, CreateUserArgs, CreateUserResult } from "../nullable-30/src/client.js";
export const user: User = { id: "u1", name: "Ada", password: "longenough", nickname: null, role: null, manager: null, address: null, tags: [null, "x"] };
// @ts-expect-error name is not nullable
export const badUser: User = { id: "u1", name: null, password: "longenough" };
// @ts-expect-error role is one of its values or null
export const badRole: User = { id: "u1", name: "Ada", password: "longenough", role: "owner" };
// A request leaves out the readOnly id; a response may leave out the writeOnly password.
export const args: CreateUserArgs = { body: { name: "Ada", password: "longenough" } };
export const result: CreateUserResult = { id: "u1", name: "Ada" };
export const idIsReadonly = (r: CreateUserResult): string | undefined => r.id;
// The server's handler sees the same directions: no id in the request, no password in the reply.
import type { CreateUserInput, CreateUserReply } from "../nullable-30/src/server.js";
export const handlerBody: CreateUserInput["body"] = { name: "Ada", password: "longenough" };
export const reply: CreateUserReply = { status: 201, body: { id: "u1", name: "Ada" } };
// Nested too: a team's members (array items, through $ref) are sent without their readOnly id.
export const team: CreateTeamArgs = { body: { members: [{ name: "Ada", password: "longenough" }] } };
// @ts-expect-error a nested readOnly id cannot be sent
export const badTeam: CreateTeamArgs = { body: { members: [{ id: "u1", name: "Ada", password: "longenough" }] } };
// A readOnly member is absent from request types, the handler's input included.
// @ts-expect-error the request carries no id
export const noId = (i: CreateUserInput): unknown => i.body.id;
`,
  },
  {
    name: "schema-31",
    spec: "schema-31.yaml",
    assertions: `
import type { Settings } from "../schema-31/src/types.js";
export const settings: Settings = { version: 2, kind: "settings", revision: 3, secret: "s", label: null, point: [1, 2, "origin"], limits: { a: 1 }, labels: { "x-a": "text", "n-b": 2 } };
// @ts-expect-error kind is the constant "settings"
export const badKind: Settings = { ...settings, kind: "other" };
// @ts-expect-error version is the constant 2
export const badVersion: Settings = { ...settings, version: 3 };
// @ts-expect-error the tuple's first member is a number
export const badPoint: Settings = { ...settings, point: ["1", 2, "x"] };
// @ts-expect-error limits map to numbers
export const badLimits: Settings = { ...settings, limits: { a: "many" } };
`,
  },
  {
    name: "parameters",
    spec: "parameters.yaml",
    assertions: `
import type { GetItemArgs, GetTokenArgs, DeleteItemArgs } from "../parameters/src/client.js";
export const get: GetItemArgs = { itemId: 1, lang: "fr", trace: "t" };
// @ts-expect-error the GET overrides the path-item lang: en or fr, and required
export const getDe: GetItemArgs = { itemId: 1, lang: "de" };
// The DELETE inherits the path-item lang (en or de), optional.
export const del: DeleteItemArgs = { itemId: 1, lang: "de" };
// Path token and query token are two arguments.
export const tok: GetTokenArgs = { token: "path", token2: "query" };
`,
  },
  {
    name: "bodies",
    spec: "bodies.yaml",
    assertions: `
import type { createBodiesClient, GetBlobResult, GetNoteResult, PutBlobArgs, UploadArgs, LoginArgs } from "../bodies/src/client.js";
import type { ServerSentEvent } from "@contractgen/runtime";
export const upload: UploadArgs = { body: { file: new Blob(["x"]), title: "t", tags: ["a"], meta: { source: "s" } } };
export const uploadForm: UploadArgs = { body: new FormData() };
export const login: LoginArgs = { body: { username: "u", password: "pass", remember: true } };
export const put: PutBlobArgs = { id: "1", body: new Uint8Array([1, 2]) };
export const blob: GetBlobResult = new Uint8Array();
export const note: GetNoteResult = "text";
// @ts-expect-error a binary response arrives as bytes, not a string
export const badBlob: GetBlobResult = "bytes";
// @ts-expect-error the upload needs its title
export const badUpload: UploadArgs = { body: { file: new Blob(["x"]) } };
type Client = ReturnType<typeof createBodiesClient>;
export async function firstEntry(c: Client): Promise<number> {
  for await (const e of c.stream.getFeed()) return e.n;
  return 0;
}
export async function firstEvent(c: Client): Promise<ServerSentEvent | undefined> {
  for await (const e of c.stream.streamEvents()) return e;
  return undefined;
}
`,
  },
  {
    name: "webhooks",
    spec: "webhooks.yaml",
    assertions: `
import type { webhooks, Event } from "../webhooks/src/types.js";
type Delivery = webhooks["petAdopted"]["post"]["requestBody"]["content"]["application/json"];
export const delivery: Delivery = { type: "adopted", at: "2024-01-01T00:00:00Z" };
export const event: Event = delivery;
// @ts-expect-error the webhook's event type is adopted or returned
export const badDelivery: Delivery = { type: "sold", at: "2024-01-01T00:00:00Z" };
`,
  },
  { name: "servers", spec: "servers.yaml" },
  {
    name: "no-operation-id",
    spec: "no-operation-id.yaml",
    assertions: `
import type { createNoOperationIdClient } from "../no-operation-id/src/client.js";
type C = ReturnType<typeof createNoOperationIdClient>;
export const names: (keyof C)[] = ["getUsers", "postUsers", "getUsersById2", "deleteUsersById", "getUsersByIdPosts", "getUsersById"];
export const call = (c: C) => c.getUsersByIdPosts({ id: "1" });
`,
  },
  {
    name: "external",
    spec: "external/openapi.yaml",
    assertions: `
import type { GetOrderResult, GetOrderArgs } from "../external/src/client.js";
export const order: GetOrderResult = { id: "o1", lines: [{ sku: "s", quantity: 1, price: { amount: "1.00", currency: "EUR" } }], total: { amount: "1.00", currency: "EUR" } };
export const args: GetOrderArgs = { orderId: "ord_1" };
// @ts-expect-error a line needs its quantity
export const badOrder: GetOrderResult = { id: "o1", lines: [{ sku: "s" }], total: { amount: "1.00", currency: "EUR" } };
`,
  },
  {
    name: "refs",
    spec: "refs.yaml",
    assertions: `
import type { CreateAddressArgs } from "../refs/src/client.js";
import { ApiError, ApiError2, errorClasses } from "../refs/src/problems.js";
export const args: CreateAddressArgs = { companyId: "c", body: { company: "c", address: { line1: "x", type: "billing" }, kind: "delivery", echo: "e" } };
// @ts-expect-error the address type is billing or delivery
export const badArgs: CreateAddressArgs = { companyId: "c", body: { company: "c", address: { line1: "x", type: "home" } } };
export const classes: [typeof ApiError, typeof ApiError2] = [ApiError, errorClasses.ApiError];
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
    const types = built.source("recursion", "compiled/types.d.ts");
    expect(types).toMatch(/export interface JsonValueArray extends Array<\s*components\["schemas"\]\["JsonValue"\]\s*> \{\s*\}/);
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

describe("polymorphism: allOf with a discriminator, oneOf/anyOf with and without mapping", () => {
  it("validates each union member and rejects what matches none", async () => {
    const v = (await built.load<Validators>("polymorphism", "validators")).schemaValidators as Record<string, (d: unknown) => boolean>;
    const verdicts = {
      cat: v["Cat"]!({ petType: "cat", name: "Tom", livesLeft: 3 }),
      catTooManyLives: v["Cat"]!({ petType: "cat", name: "Tom", livesLeft: 12 }),
      petAsCatTooManyLives: v["Pet"]!({ petType: "cat", name: "Tom", livesLeft: 12 }),
      petAsCatMissingLives: v["Pet"]!({ petType: "cat", name: "Tom" }),
      petAsDog: v["Pet"]!({ petType: "dog", name: "Rex" }),
      petUnknownType: v["Pet"]!({ petType: "fish", name: "Nemo" }),
      circle: v["Shape"]!({ kind: "circle", radius: 2 }),
      circleWithSideOnly: v["Shape"]!({ kind: "circle", side: 2 }),
      car: v["Vehicle"]!({ vehicleType: "Car", doors: 2 }),
      carWithoutDoors: v["Vehicle"]!({ vehicleType: "Car" }),
      iban: v["Payment"]!({ iban: "DE00" }),
      both: v["Payment"]!({ iban: "DE00", card: "1234123412341234" }),
      email: v["Contact"]!({ email: "a@b.c" }),
      neither: v["Contact"]!({ fax: "1" }),
      bird: v["Animal"]!({ kind: "Bird", wingspan: 2 }),
      birdWithBadWingspan: v["Animal"]!({ kind: "Bird", wingspan: "wide" }),
      whale: v["Animal"]!({ kind: "Whale" }),
    };
    expect(verdicts).toEqual({
      cat: true,
      catTooManyLives: false,
      petAsCatTooManyLives: false,
      petAsCatMissingLives: false,
      petAsDog: true,
      // A value that names no subtype is held to the base only.
      petUnknownType: true,
      circle: true,
      circleWithSideOnly: false,
      car: true,
      carWithoutDoors: false,
      iban: true,
      both: false,
      email: true,
      neither: false,
      bird: true,
      birdWithBadWingspan: false,
      // Not a mapped value: the union as JSON Schema reads it, and both branches match.
      whale: false,
    });
  });
});

describe("defaults in requests", () => {
  it("let a call leave a defaulted member out and send only what it was given", async () => {
    const { createDefaultsClient } = await built.load<{ createDefaultsClient: (o: Record<string, unknown>) => AnyClient }>("defaults", "client");
    const rec = recordingFetch(() => Response.json({ pattern: "a*", isEqual: true, weight: 1 }, { status: 201 }));
    const client = createDefaultsClient({ baseUrl: "http://127.0.0.1:9", fetch: rec.fetch, retry: false });
    await expect(client["createMatcher"]!({ body: { pattern: "a*" } })).resolves.toEqual({ pattern: "a*", isEqual: true, weight: 1 });
    expect(JSON.parse(rec.calls[0]?.body ?? "null")).toEqual({ pattern: "a*" });
    const v = await built.load<Validators>("defaults", "validators");
    expect(v.validateRequest("createMatcher", { body: { pattern: "a*" } }).valid).toBe(true);
  });
});

describe("nullable (3.0), type arrays with null (3.1), readOnly and writeOnly", () => {
  it("accepts null where a schema is nullable and only there", async () => {
    const { User } = (await built.load<Validators>("nullable-30", "validators")).schemaValidators as Record<string, (d: unknown) => boolean>;
    const base = { id: "u1", name: "Ada", password: "longenough" };
    for (const field of ["nickname", "role", "manager", "address", "tags"]) expect(User!({ ...base, [field]: null }), field).toBe(true);
    expect(User!({ ...base, tags: ["a", null] })).toBe(true);
    expect(User!({ ...base, name: null })).toBe(false);
    expect(User!({ ...base, role: "owner" })).toBe(false);
    expect(User!({ ...base, manager: { name: 3 } })).toBe(false);
    const { Settings } = (await built.load<Validators>("schema-31", "validators")).schemaValidators as Record<string, (d: unknown) => boolean>;
    const settings = { version: 2, kind: "settings", revision: 1, secret: "s", point: [1, 2] };
    expect(Settings!({ ...settings, label: null })).toBe(true);
    expect(Settings!({ ...settings, label: 5 })).toBe(false);
  });

  it("requires readOnly members in responses only and writeOnly members in requests only, nested too", async () => {
    const v = await built.load<Validators>("nullable-30", "validators");
    expect(v.validateRequest("createUser", { body: { name: "Ada", password: "longenough" } }).valid).toBe(true);
    expect(v.validateRequest("createUser", { body: { name: "Ada" } }).valid).toBe(false);
    expect(v.validateRequest("createUser", { body: { name: "Ada", password: "short" } }).valid).toBe(false);
    expect(v.validateResponse("createUser", 201, "application/json", { id: "u1", name: "Ada" }).valid).toBe(true);
    expect(v.validateResponse("createUser", 201, "application/json", { name: "Ada" }).valid).toBe(false);
    // Through a reference inside an array.
    expect(v.validateRequest("createTeam", { body: { members: [{ name: "Ada", password: "longenough" }] } }).valid).toBe(true);
    expect(v.validateResponse("createTeam", 201, "application/json", { members: [{ id: "u1", name: "Ada" }] }).valid).toBe(true);
    expect(v.validateResponse("createTeam", 201, "application/json", { members: [{ name: "Ada" }] }).valid).toBe(false);
    // The named schema validator keeps every requirement.
    expect(v.schemaValidators["User"]!({ name: "Ada", password: "longenough" })).toBe(false);
  });
});

describe("const, prefixItems, additionalProperties and patternProperties", () => {
  it("enforce each keyword", async () => {
    const { Settings } = (await built.load<Validators>("schema-31", "validators")).schemaValidators as Record<string, (d: unknown) => boolean>;
    const ok = { version: 2, kind: "settings", revision: 1, secret: "s", point: [1, 2, "origin"], limits: { a: 0 }, labels: { "x-a": "t", "n-b": 1 }, closed: { only: true } };
    const verdicts = {
      ok: Settings!(ok),
      shortTuple: Settings!({ ...ok, point: [1, 2] }),
      tupleTooShort: Settings!({ ...ok, point: [1] }),
      tupleTooLong: Settings!({ ...ok, point: [1, 2, "a", "b"] }),
      tupleWrongMember: Settings!({ ...ok, point: ["1", 2] }),
      constVersion: Settings!({ ...ok, version: 3 }),
      constKind: Settings!({ ...ok, kind: "x" }),
      negativeLimit: Settings!({ ...ok, limits: { a: -1 } }),
      patternWrongType: Settings!({ ...ok, labels: { "x-a": 1 } }),
      patternUnknownKey: Settings!({ ...ok, labels: { other: "t" } }),
      closedExtra: Settings!({ ...ok, closed: { only: true, more: 1 } }),
    };
    expect(verdicts).toEqual({
      ok: true,
      shortTuple: true,
      tupleTooShort: false,
      tupleTooLong: false,
      tupleWrongMember: false,
      constVersion: false,
      constKind: false,
      negativeLimit: false,
      patternWrongType: false,
      patternUnknownKey: false,
      closedExtra: false,
    });
  });
});

describe("parameters", () => {
  type Client = AnyClient;
  const client = async (respond?: (req: Request) => Response): Promise<{ c: Client; calls: ReturnType<typeof recordingFetch>["calls"] }> => {
    const { createParametersClient } = await built.load<{ createParametersClient: (o: object) => Client }>("parameters", "client");
    const rec = recordingFetch(respond);
    return { c: createParametersClient({ fetch: rec.fetch }), calls: rec.calls };
  };
  const color = { R: 100, G: 200, B: 150 };
  const list = ["blue", "black", "brown"];
  const pathOf = (url: string | undefined): string => decodeURI(new URL(url ?? "http://x").pathname);

  it("inherit path-item parameters and let the operation override them", async () => {
    const { c, calls } = await client();
    await c["getItem"]!({ itemId: 7, lang: "fr", trace: "abc" });
    await c["deleteItem"]!({ itemId: 7, lang: "de" });
    expect(calls.map((x) => `${x.method} ${x.url}`)).toEqual(["GET https://api.test/items/7?lang=fr", "DELETE https://api.test/items/7?lang=de"]);
    expect(calls[0]?.headers.get("trace")).toBe("abc");
    const v = await built.load<Validators>("parameters", "validators");
    expect(v.validateRequest("getItem", { path: { itemId: "7" }, query: { lang: "de" } }).valid).toBe(false);
    expect(v.validateRequest("getItem", { path: { itemId: "7" }, query: { lang: "fr" } }).valid).toBe(true);
    expect(v.validateRequest("deleteItem", { path: { itemId: "7" }, query: { lang: "de" } }).valid).toBe(true);
  });

  it("serialize path parameters in the simple, label and matrix styles, exploded or not", async () => {
    const { c, calls } = await client();
    const args = { prim: "blue", arr: list, obj: color, arrx: list, objx: color };
    await c["pathSimple"]!(args);
    await c["pathLabel"]!(args);
    await c["pathMatrix"]!(args);
    expect(calls.map((x) => pathOf(x.url))).toEqual([
      "/simple/blue/blue,black,brown/R,100,G,200,B,150/blue,black,brown/R=100,G=200,B=150",
      "/label/.blue.blue,black,brown.R,100,G,200,B,150.blue.black.brown.R=100.G=200.B=150",
      "/matrix/;prim=blue;arr=blue,black,brown;obj=R,100,G,200,B,150;arrx=blue;arrx=black;arrx=brown;R=100;G=200;B=150",
    ]);
  });

  it("percent-encode values but keep each style's delimiters", async () => {
    const { c, calls } = await client();
    await c["pathSimple"]!({ prim: "a/b c", arr: ["x,y"], obj: { "k y": "v&w" }, arrx: ["1"], objx: { a: "=" } });
    expect(new URL(calls[0]!.url).pathname).toBe("/simple/a%2Fb%20c/x%2Cy/k%20y,v%26w/1/a=%3D");
  });

  it("serialize query parameters in the form, spaceDelimited, pipeDelimited and deepObject styles", async () => {
    const { c, calls } = await client();
    await c["queryStyles"]!({ prim: "blue", formArr: list, formArrX: list, formObj: color, formObjX: color, spaced: list, piped: list, deep: color });
    expect(decodeURI(new URL(calls[0]!.url).search)).toBe(
      "?prim=blue&formArr=blue,black,brown&formArrX=blue&formArrX=black&formArrX=brown&formObj=R,100,G,200,B,150&R=100&G=200&B=150" +
        "&spaced=blue black brown&piped=blue|black|brown&deep[R]=100&deep[G]=200&deep[B]=150",
    );
  });

  it("serialize header parameters in the simple style", async () => {
    const { c, calls } = await client();
    await c["headerStyles"]!({ "X-Prim": 5, "X-Arr": list, "X-Obj": color, "X-Obj-X": color });
    const h = calls[0]!.headers;
    expect([h.get("x-prim"), h.get("x-arr"), h.get("x-obj"), h.get("x-obj-x")]).toEqual(["5", "blue,black,brown", "R,100,G,200,B,150", "R=100,G=200,B=150"]);
  });

  it("send cookie parameters in the Cookie header, beside cookies the caller sets", async () => {
    const { c, calls } = await client();
    await c["cookieStyles"]!({ session: "a b", ids: [1, 2, 3], pref: color, headers: { Cookie: "theme=dark" } });
    expect(calls[0]!.headers.get("cookie")).toBe("theme=dark; session=a%20b; ids=1,2,3; pref=R,100,G,200,B,150");
  });

  it("keep a path and a query parameter of the same name apart", async () => {
    const { c, calls } = await client();
    await c["getToken"]!({ token: "p", token2: "q" });
    expect(calls[0]!.url).toBe("https://api.test/tokens/p?token=q");
  });
});

describe("request and response media types", () => {
  type BodiesClient = AnyClient & { stream: Record<string, (args?: object) => AsyncGenerator<unknown>> };
  const client = async (respond?: (req: Request) => Response): Promise<{ c: BodiesClient; calls: ReturnType<typeof recordingFetch>["calls"] }> => {
    const { createBodiesClient } = await built.load<{ createBodiesClient: (o: object) => BodiesClient }>("bodies", "client");
    const rec = recordingFetch(respond);
    return { c: createBodiesClient({ fetch: rec.fetch }), calls: rec.calls };
  };
  const collect = async (it: AsyncGenerator<unknown>): Promise<unknown[]> => {
    const out: unknown[] = [];
    for await (const x of it) out.push(x);
    return out;
  };

  it("sends multipart/form-data with files as parts and object fields as JSON parts", async () => {
    const { c, calls } = await client(() => Response.json({ id: "f1" }, { status: 201 }));
    const result = await c["upload"]!({ body: { file: new Blob(["hello"], { type: "text/plain" }), title: "greeting", tags: ["a", "b"], meta: { source: "test" } } });
    expect(result).toEqual({ id: "f1" });
    expect(calls[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await calls[0]!.request.formData();
    expect(await (form.get("file") as Blob).text()).toBe("hello");
    expect(form.get("title")).toBe("greeting");
    expect(form.getAll("tags")).toEqual(["a", "b"]);
    const meta = form.get("meta") as Blob;
    expect(meta.type).toBe("application/json");
    expect(JSON.parse(await meta.text())).toEqual({ source: "test" });
  });

  it("sends application/x-www-form-urlencoded and validates it with coercion", async () => {
    const { c, calls } = await client();
    await c["login"]!({ body: { username: "ada", password: "secret", remember: true } });
    expect(calls[0]!.contentType).toBe("application/x-www-form-urlencoded");
    expect(calls[0]!.body).toBe("username=ada&password=secret&remember=true");
    const v = await built.load<Validators>("bodies", "validators");
    const form = "application/x-www-form-urlencoded";
    expect(v.validateRequest("login", { contentType: form, body: { username: "ada", password: "secret", remember: "true" } }).valid).toBe(true);
    expect(v.validateRequest("login", { contentType: form, body: { username: "ada", password: "pw" } }).valid).toBe(false);
  });

  it("sends raw bytes and receives binary and text bodies as bytes and strings", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { c, calls } = await client((req) =>
      req.method === "PUT"
        ? new Response(null, { status: 204 })
        : new URL(req.url).pathname.endsWith("/notes")
          ? new Response("a note", { headers: { "content-type": "text/plain; charset=utf-8" } })
          : new Response(png, { headers: { "content-type": "image/png" } }),
    );
    await c["putBlob"]!({ id: "b1", body: new Uint8Array([1, 2, 3]) });
    expect(calls[0]!.contentType).toBe("application/octet-stream");
    expect(new Uint8Array(await calls[0]!.request.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const bytes = await c["getBlob"]!({ id: "b1" });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...(bytes as Uint8Array)]).toEqual([...png]);
    expect(await c["getNote"]!()).toBe("a note");
    expect(calls.map((x) => x.url)).toEqual(["https://files.test/v1/blobs/b1", "https://files.test/v1/blobs/b1", "https://files.test/v1/notes"]);
  });

  it("reads server-sent events and NDJSON responses item by item", async () => {
    const chunks = (parts: string[]): ReadableStream<Uint8Array> =>
      new ReadableStream({
        start(controller) {
          for (const p of parts) controller.enqueue(new TextEncoder().encode(p));
          controller.close();
        },
      });
    const { c } = await client((req) =>
      new URL(req.url).pathname.endsWith("/events")
        ? new Response(chunks(["data: first\n\n: a comment\nevent: tick\nda", "ta: 1\r\ndata: 2\rid: 7\n\n", "data: unterminated"]), { headers: { "content-type": "text/event-stream" } })
        : new Response(chunks(['{"n":1}\n{"n"', ":2}\n\n"]), { headers: { "content-type": "application/x-ndjson" } }),
    );
    expect(await collect(c.stream["streamEvents"]!())).toEqual([
      { event: "message", data: "first" },
      { event: "tick", data: "1\n2", id: "7" },
    ]);
    expect(await collect(c.stream["getFeed"]!())).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

describe("callbacks and webhooks", () => {
  it("type webhook deliveries, validate their schemas, and make no client methods for them", async () => {
    const mod = await built.load<Record<string, unknown>>("webhooks", "client");
    const client = (mod["createWebhooksClient"] as (o: object) => Record<string, unknown>)({});
    expect(Object.keys(client).filter((k) => typeof client[k] === "function" && k !== "invalidateAppToken")).toEqual(["subscribe"]);
    const { Event } = (await built.load<Validators>("webhooks", "validators")).schemaValidators as Record<string, (d: unknown) => boolean>;
    expect(Event!({ type: "adopted", at: "2024-01-01T00:00:00Z" })).toBe(true);
    expect(Event!({ type: "adopted", at: "yesterday" })).toBe(false);
    const ops = (await built.load<{ operationList: { operationId: string }[] }>("webhooks", "operations")).operationList;
    expect(ops.map((o) => o.operationId)).toEqual(["subscribe"]);
  });
});

describe("server variables", () => {
  const make = async (options: object): Promise<{ c: AnyClient; urls: () => string[] }> => {
    const { createServersClient } = await built.load<{ createServersClient: (o: object) => AnyClient }>("servers", "client");
    const rec = recordingFetch();
    return { c: createServersClient({ ...options, fetch: rec.fetch }), urls: () => rec.calls.map((x) => x.url) };
  };

  it("default to the first server with each variable's default, and take other values", async () => {
    const plain = await make({});
    await plain.c["ping"]!();
    const us = await make({ serverVariables: { region: "us", version: "v3" } });
    await us.c["ping"]!();
    const local = await make({ baseUrl: "http://localhost:8080" });
    await local.c["ping"]!();
    expect([...plain.urls(), ...us.urls(), ...local.urls()]).toEqual(["https://eu.api.test/v2/ping", "https://us.api.test/v3/ping", "http://localhost:8080/ping"]);
  });

  it("resolve an operation's own server with its variables", async () => {
    const sandbox = await make({});
    await sandbox.c["uploadToSandbox"]!({ body: {} });
    const staging = await make({ serverVariables: { sandbox: "staging" } });
    await staging.c["uploadToSandbox"]!({ body: {} });
    expect([...sandbox.urls(), ...staging.urls()]).toEqual(["https://sandbox.upload.test/uploads", "https://staging.upload.test/uploads"]);
  });
});

describe("operations without operationId", () => {
  it("get names from method and path, never taking an explicit operationId", async () => {
    const ops = (await built.load<{ operationList: { operationId: string; method: string; path: string }[] }>("no-operation-id", "operations")).operationList;
    expect(ops.map((o) => `${o.operationId} ${o.method.toUpperCase()} ${o.path}`)).toEqual([
      "getUsers GET /users",
      "postUsers POST /users",
      "getUsersById2 GET /users/{id}",
      "deleteUsersById DELETE /users/{id}",
      "getUsersByIdPosts GET /users/{id}/posts",
      "getUsersById GET /users-by-id",
    ]);
    const { createNoOperationIdClient } = await built.load<{ createNoOperationIdClient: (o: object) => AnyClient }>("no-operation-id", "client");
    const rec = recordingFetch();
    const c = createNoOperationIdClient({ fetch: rec.fetch });
    await c["getUsersById2"]!({ id: "7" });
    await c["getUsersById"]!();
    expect(rec.calls.map((x) => x.url)).toEqual(["https://noid.test/users/7", "https://noid.test/users-by-id"]);
  });
});

describe("external $ref files", () => {
  it("bundle parameters, responses and schemas from other files, with their own relative references", async () => {
    const v = await built.load<Validators>("external", "validators");
    const money = { amount: "1.00", currency: "EUR" };
    const order = { id: "o1", lines: [{ sku: "s", quantity: 2, price: money }], total: money };
    expect(v.validateResponse("getOrder", 200, "application/json", order).valid).toBe(true);
    expect(v.validateResponse("getOrder", 200, "application/json", { ...order, total: { amount: "1", currency: "EUR" } }).valid).toBe(false);
    expect(v.validateResponse("getOrder", 200, "application/json", { ...order, lines: [{ sku: "s", quantity: 0 }] }).valid).toBe(false);
    expect(v.validateResponse("getOrder", 404, "application/json", { message: "no" }).valid).toBe(true);
    expect(v.validateRequest("getOrder", { path: { orderId: "ord_12" } }).valid).toBe(true);
    expect(v.validateRequest("getOrder", { path: { orderId: "12" } }).valid).toBe(false);
  });
});

describe("references into other places", () => {
  it("follow $refs to a parameter's schema, a schema's definitions and a schema inside paths", async () => {
    const v = await built.load<Validators>("refs", "validators");
    const body = { company: "3f1b7c1e-8a3c-4c5e-9b1a-2d3e4f5a6b7c", address: { line1: "x", type: "billing" }, kind: "delivery", echo: "short" };
    expect(v.validateRequest("createAddress", { path: { companyId: body.company }, body }).valid).toBe(true);
    expect(v.validateRequest("createAddress", { path: { companyId: body.company }, body: { ...body, kind: "home" } }).valid).toBe(false);
    expect(v.validateRequest("createAddress", { path: { companyId: body.company }, body: { ...body, company: "not-a-uuid" } }).valid).toBe(false);
    expect(v.validateRequest("createAddress", { path: { companyId: body.company }, body: { ...body, echo: "far too long" } }).valid).toBe(false);
  });
});

describe("error schemas", () => {
  it("named like the problems module's own names get a class of their own", async () => {
    const problems = await built.load<Record<string, unknown>>("refs", "problems");
    expect(typeof problems["ApiError2"]).toBe("function");
    expect((problems["errorClasses"] as Record<string, unknown>)["ApiError"]).toBe(problems["ApiError2"]);
    const { createRefsClient } = await built.load<{ createRefsClient: (o: object) => AnyClient }>("refs", "client");
    const c = createRefsClient({ fetch: recordingFetch(() => Response.json({ message: "bad" }, { status: 400 })).fetch });
    const error = await c["createAddress"]!({ companyId: "c", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(problems["ApiError2"] as new () => unknown);
  });
});

describe("invalid 3.1 schema keywords", () => {
  it("are a located error naming the keyword, not an internal error", async () => {
    const out = path.join(workspaceTmpDir("invalid-"), "pkg");
    const r = await runCli(["generate", path.join(CONSTRUCTS, "invalid-31.yaml"), "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("invalid-31.yaml:14:11 #/components/schemas/Item/definitions/itemType/type");
    expect(r.stderr).toContain("error: 'type' must be a type name");
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
