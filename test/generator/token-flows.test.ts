/**
 * The app-only bearer token's life (issued, returned again, revoked, refused, a new one differs) is
 * planned from the contract itself: the operations at a client-credentials flow's `tokenUrl` and at
 * its `x-revocation-url` (relative paths), whatever they are called. Without a revocation endpoint
 * there is no such scenario.
 */
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runCli, tmpDir } from "./helpers.js";

const spec = (revocation: string): string => `openapi: 3.1.0
info: { title: Tokens, version: 1.0.0 }
paths:
  /auth/issue:
    post:
      operationId: issueAppToken
      security: [{ basic: [] }]
      responses:
        '200': { description: the token, content: { application/json: { schema: { type: object } } } }
  /auth/revoke:
    post:
      operationId: revokeAppToken
      security: [{ basic: [] }]
      responses:
        '200': { description: revoked, content: { application/json: { schema: { type: object } } } }
  /things:
    get:
      operationId: listThings
      security: [{ app: [] }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array } } } }
components:
  securitySchemes:
    basic: { type: http, scheme: basic }
    app:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: /auth/issue${revocation}
          scopes: {}
`;

async function scenariosOf(text: string): Promise<{ kind: string; create?: string; invalidate?: string; probe?: string }[]> {
  const dir = tmpDir("cg-tokens-");
  writeFileSync(path.join(dir, "api.yaml"), text);
  const res = await runCli(["generate", "api.yaml", "--out", "out", "--name", "tokens", "--cache-dir", path.join(dir, ".cache")], dir);
  expect(res.code, res.stderr).toBe(0);
  // The plan module only imports a type: loaded as it is, it is the plan the suite runs.
  const { plan } = (await import(path.join(dir, "out/test/conformance.plan.ts"))) as { plan: { scenarios: { kind: string }[] } };
  return plan.scenarios;
}

describe("the app-only bearer token's life", () => {
  it("is planned from the flow's tokenUrl and x-revocation-url, with an operation the token opens as the probe", async () => {
    const scenarios = await scenariosOf(spec("\n          x-revocation-url: /auth/revoke"));
    expect(scenarios.filter((s) => s.kind === "bearerLifecycle")).toMatchObject([{ create: "issueAppToken", invalidate: "revokeAppToken", probe: "listThings" }]);
  });

  it("is not planned where the flow names no revocation endpoint", async () => {
    const scenarios = await scenariosOf(spec(""));
    expect(scenarios.filter((s) => s.kind === "bearerLifecycle")).toEqual([]);
  });
});
