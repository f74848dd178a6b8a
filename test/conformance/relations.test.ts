/**
 * The relations model: which operation gives the values each path parameter and each referencing
 * member takes. Given a small document, want the sources, best first; and never a source that
 * would name an object of another kind.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildModel, loadSpec } from "../../generators/src/index.js";
import { keyMemberOf, relationsOf, stemOf } from "../../generators/src/model/relations.js";

async function relations(paths: string, components = ""): Promise<ReturnType<typeof relationsOf>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cg-relations-"));
  const file = path.join(dir, "api.yaml");
  writeFileSync(file, `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n${paths}\ncomponents:\n  schemas:\n    Ok: { type: object }\n${components}`);
  return relationsOf(buildModel(await loadSpec(file), "t"));
}

const ok = `responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Ok" } } } } }`;
const list = (items: string): string => `responses: { "200": { description: ok, content: { application/json: { schema: ${items} } } } }`;
const param = (name: string, type = "string"): string => `{ name: ${name}, in: path, required: true, schema: { type: ${type} } }`;

describe("relations: where a path parameter's values come from", () => {
  it.each([
    {
      given: "the parent collection lists its items with an id",
      paths: `  /things:
    get: { operationId: listThings, ${list("{ type: object, properties: { data: { type: array, items: { type: object, properties: { id: { type: string } } } } } }")} }
  /things/{thing_id}:
    get: { operationId: getThing, parameters: [${param("thing_id")}], ${ok} }`,
      op: "getThing",
      param: "thing_id",
      want: [{ kind: "list", operationId: "listThings", items: "/data", field: "id" }],
    },
    {
      given: "a bare array keyed by name, not id",
      paths: `  /zones:
    get: { operationId: listZones, ${list("{ type: array, items: { type: object, properties: { name: { type: string }, kind: { type: string } } } }")} }
  /zones/{name}:
    get: { operationId: getZone, parameters: [${param("name")}], ${ok} }`,
      op: "getZone",
      param: "name",
      want: [{ kind: "list", operationId: "listZones", items: "", field: "name" }],
    },
    {
      given: "a key named for the member it holds (metadata kept by kind, no id)",
      paths: `  /zones/{zone_id}/metadata:
    get: { operationId: listMetadata, parameters: [${param("zone_id")}], ${list("{ type: array, items: { type: object, properties: { kind: { type: string }, metadata: { type: array, items: { type: string } } } } }")} }
  /zones/{zone_id}/metadata/{metadata_kind}:
    get: { operationId: getMetadata, parameters: [${param("zone_id")}, ${param("metadata_kind")}], ${ok} }`,
      op: "getMetadata",
      param: "metadata_kind",
      want: [{ kind: "list", operationId: "listMetadata", items: "", field: "kind" }],
    },
    {
      given: "a camelCase id whose list is a sibling plural path",
      paths: `  /silences:
    get: { operationId: getSilences, ${list("{ type: array, items: { type: object, properties: { id: { type: string } } } }")} }
  /silence/{silenceID}:
    get: { operationId: getSilence, parameters: [${param("silenceID")}], ${ok} }`,
      op: "getSilence",
      param: "silenceID",
      want: [{ kind: "list", operationId: "getSilences", items: "", field: "id" }],
    },
    {
      given: "an empty-able list and the collection's own create, whose answer gives the key",
      paths: `  /things:
    get: { operationId: listThings, ${list("{ type: object, properties: { data: { type: array, items: { type: object, properties: { id: { type: string } } } } } }")} }
    post: { operationId: createThing, ${list("{ type: object, properties: { data: { type: object, properties: { id: { type: string } } } } }")} }
  /things/{thing_id}:
    delete: { operationId: deleteThing, parameters: [${param("thing_id")}], ${ok} }`,
      op: "deleteThing",
      param: "thing_id",
      want: [
        { kind: "list", operationId: "listThings", items: "/data", field: "id" },
        { kind: "create", operationId: "createThing", pointers: ["/data/id"], location: false },
      ],
    },
    {
      given: "a create whose answer, declared for any media type, holds the key inside a member named for the resource",
      paths: `  /jurisdictions:
    post: { operationId: createJurisdiction, responses: { "201": { description: made, content: { "*/*": { schema: { type: object, properties: { county: { type: string }, jurisdiction: { type: object, properties: { jurisdictionId: { type: string }, name: { type: string } } } } } } } } } }
  /jurisdictions/{jurisdictionId}:
    get: { operationId: getJurisdiction, parameters: [${param("jurisdictionId")}], ${ok} }`,
      op: "getJurisdiction",
      param: "jurisdictionId",
      want: [{ kind: "create", operationId: "createJurisdiction", pointers: ["/jurisdiction/jurisdictionId"], location: false }],
    },
    {
      given: "a create that answers only a Location header",
      paths: `  /files:
    post: { operationId: upload, responses: { "201": { description: made, headers: { Location: { schema: { type: string } } } } } }
  /files/{path}:
    get: { operationId: getFile, parameters: [${param("path")}], ${ok} }`,
      op: "getFile",
      param: "path",
      want: [{ kind: "create", operationId: "upload", pointers: [], location: true }],
    },
    {
      given: "a key after another path parameter: a list named for its resource may hold another kind",
      paths: `  /cards:
    get: { operationId: listCards, ${list("{ type: array, items: { type: object, properties: { id: { type: string } } } }")} }
  /cards/{card_type}/{card_id}:
    delete: { operationId: deleteLegacy, parameters: [${param("card_type")}, ${param("card_id")}], ${ok} }`,
      op: "deleteLegacy",
      param: "card_id",
      want: undefined,
    },
    {
      given: "a numeric id where the list gives text ids: text is sent anyway (a number fits text, text a number)",
      paths: `  /users:
    get: { operationId: listUsers, ${list("{ type: array, items: { type: object, properties: { id: { type: integer } } } }")} }
  /users/{user_id}:
    get: { operationId: getUser, parameters: [${param("user_id")}], ${ok} }`,
      op: "getUser",
      param: "user_id",
      want: [{ kind: "list", operationId: "listUsers", items: "", field: "id" }],
    },
  ])("$given", async ({ paths, op, param: name, want }) => {
    const r = await relations(paths);
    expect(r.pathSources.get(op)?.[name]).toEqual(want);
  });
});

describe("relations: members that name another resource", () => {
  it("a body member named for a listed key takes the list's values; an enum member is a code, not a reference", async () => {
    const r = await relations(`  /media:
    get: { operationId: listMedia, ${list("{ type: object, properties: { data: { type: array, items: { type: object, properties: { media_key: { type: string } } } } } }")} }
  /cards:
    post:
      operationId: createCard
      requestBody: { content: { application/json: { schema: { type: object, properties: { media_key: { type: string }, kind_id: { type: string, enum: [a, b] } } } } } }
      ${ok}`);
    expect(r.references.get("createCard")).toEqual([{ in: "body", name: "media_key", many: false, sources: [{ kind: "list", operationId: "listMedia", items: "/data", field: "media_key" }] }]);
  });

  it("a query list of ids takes one listed value", async () => {
    const r = await relations(`  /accounts:
    get: { operationId: listAccounts, ${list("{ type: array, items: { type: object, properties: { id: { type: string } } } }")} }
  /reports:
    get:
      operationId: report
      parameters: [{ name: account_ids, in: query, schema: { type: array, items: { type: string } } }]
      ${ok}`);
    expect(r.references.get("report")?.[0]).toMatchObject({ in: "query", name: "account_ids", many: true });
  });
});

describe("stemOf: the resource a name points at", () => {
  it.each([
    ["account_id", "account"],
    ["silenceID", "silence"],
    ["media_key", "media"],
    ["card_ids", "card"],
    ["name", undefined],
    ["_id", undefined],
  ])("%s → %s", (given, want) => expect(stemOf(given)).toBe(want));
});

describe("keyMemberOf: the member of an object a parameter takes", () => {
  it.each([
    { given: "media_key", members: ["media_key", "id"], want: "media_key" },
    { given: "metadata_kind", members: ["kind", "metadata"], want: "kind" },
    { given: "configSettingName", members: ["name", "value"], want: "name" },
    { given: "zone_name", members: ["id", "name"], want: "name" },
    // The member names another resource: the association's own key is its id.
    { given: "line_item_curated_category_id", members: ["id", "curated_category_id"], want: "id" },
    // A plain word the name merely contains is not its suffix.
    { given: "subdomain", members: ["domain"], want: undefined },
    { given: "thing_id", members: ["kind"], want: undefined },
  ])("$given of {$members} → $want", ({ given, members, want }) => expect(keyMemberOf(given, members)).toBe(want));
});
