/** Small builders for contract versions, so each case shows only the part that changes. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../../generators/src/load/load.js";
import { loadSpec } from "../../generators/src/load/load.js";
import type { Change, DiffResult } from "../../generators/src/diff/index.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIFF_FIXTURES = path.join(ROOT, "test/fixtures/diff");

type Obj = Record<string, unknown>;

/** Security schemes every built document declares, so requirements can name them. */
const SCHEMES = {
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  oauth: {
    type: "oauth2",
    flows: {
      authorizationCode: { authorizationUrl: "https://auth.example.com/a", tokenUrl: "https://auth.example.com/t", scopes: { read: "read", write: "write" } },
    },
  },
};

/** An OpenAPI 3.1 document with these paths; `extra` is merged at the root (components merged one level down). */
export function api(paths: Obj, extra: Obj = {}): OpenApiDocument {
  const components = { securitySchemes: SCHEMES, ...(extra["components"] as Obj | undefined) };
  return { openapi: "3.1.0", info: { title: "Fixture", version: "1.0.0" }, ...extra, paths, components };
}

/** A JSON response body. */
export const json = (schema: unknown): Obj => ({ "application/json": { schema } });

/** An operation answering 200 with an object unless `responses` says otherwise. */
export function op(operationId: string, extra: Obj = {}): Obj {
  return { operationId, responses: { "200": { description: "ok", content: json({ type: "object" }) } }, ...extra };
}

export const query = (name: string, extra: Obj = {}): Obj => ({ name, in: "query", schema: { type: "string" }, ...extra });

/** `POST /things` taking `request` and answering 200 with `response`. */
export function things(request: unknown, response: unknown): OpenApiDocument {
  return api({
    "/things": {
      post: {
        operationId: "createThing",
        requestBody: { required: true, content: json(request) },
        responses: { "200": { description: "ok", content: json(response) } },
      },
    },
  });
}

export const THINGS = "#/paths/~1things/post";
export const REQUEST_SCHEMA = `${THINGS}/requestBody/content/application~1json/schema`;
export const RESPONSE_SCHEMA = `${THINGS}/responses/200/content/application~1json/schema`;

/** The bundled document of a fixture file under test/fixtures/diff. */
export async function fixture(rel: string): Promise<OpenApiDocument> {
  return (await loadSpec(path.join(DIFF_FIXTURES, rel), { cwd: ROOT })).document;
}

/** What a case asserts about each change: kind, severity and where. */
export const shape = (c: Change): { kind: string; severity: string; pointer: string } => ({ kind: c.kind, severity: c.severity, pointer: c.pointer });

export const kindsOf = (r: DiffResult): string[] => r.changes.map((c) => c.kind);
