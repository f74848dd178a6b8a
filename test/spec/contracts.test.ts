/**
 * Contract checks for every OpenAPI document in spec/ (every `spec/*.yaml` except the vocabulary),
 * so contracts added later are covered without touching this file; then the facts document 1 fixes
 * for spec/core.yaml.
 */
import { describe, expect, it } from "vitest";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createConfig, lint, type NormalizedProblem } from "@redocly/openapi-core";
import { ContractValidators, VocabularyValidators } from "./contracts-ajv.js";
import { contractFiles, contractPath, isObject, loadBundled, loadVocabulary, resolvePointer, type Json, type JsonObject, type OpenApiDoc } from "./contracts-load.js";
import { collectExamples, operations, walkOpenApi } from "./contracts-walk.js";

const files = contractFiles();

/**
 * Redocly `recommended` warnings accepted on purpose, each with its reason. Anything else, and
 * every error, fails the lint test.
 */
const ACCEPTED_LINT_WARNINGS: { ruleId: string; pointer: string; reason: string }[] = [
  {
    ruleId: "info-license",
    pointer: "#/info",
    reason: "None of the three documents names a license for the interface; adding one would invent it.",
  },
];

const describeProblem = (p: NormalizedProblem): string => {
  const loc = p.location[0];
  const where = loc ? `${loc.source.absoluteRef.replace(/^.*\/spec\//, "spec/")}${loc.pointer ?? ""}` : "?";
  return `${p.severity} ${p.ruleId}: ${p.message} at ${where}`;
};

const isAcceptedWarning = (p: NormalizedProblem): boolean => p.severity === "warn" && ACCEPTED_LINT_WARNINGS.some((a) => a.ruleId === p.ruleId && p.location[0]?.pointer === a.pointer);

function schemaNames(doc: OpenApiDoc): Set<string> {
  const components = doc.components;
  return new Set(isObject(components) && isObject(components.schemas) ? Object.keys(components.schemas) : []);
}

it("finds the contracts to check", () => {
  expect(files).toContain("core.yaml");
});

describe.each(files)("contract spec/%s", (file) => {
  it("validates with swagger-parser", async () => {
    await expect(SwaggerParser.validate(contractPath(file))).resolves.toBeTruthy();
  });

  it("passes Redocly's recommended ruleset with no errors and no unexplained warnings", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lint({ ref: contractPath(file), config });
    const unexpected = problems.filter((p) => !isAcceptedWarning(p));
    expect(unexpected.map(describeProblem), unexpected.map(describeProblem).join("\n")).toEqual([]);
  });

  it("every example validates against its schema", async () => {
    const doc = await loadBundled(file);
    const validators = new ContractValidators(doc);
    const examples = collectExamples(doc, (ref) => resolvePointer(doc, ref));
    const failures: string[] = [];
    for (const example of examples) {
      const error = validators.check(example.schemaPointer, example.value);
      if (error) failures.push(`${example.pointer}: ${error}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
    // The check must not pass vacuously.
    expect(examples.length).toBeGreaterThan(0);
  });

  it("every x- extension is in the vocabulary, valid against its $def, and placed where x-placement allows", async () => {
    const doc = await loadBundled(file);
    const { placement } = loadVocabulary();
    const vocabulary = new VocabularyValidators();
    const failures: string[] = [];
    let count = 0;
    walkOpenApi(doc, ({ node, kind, pointer }) => {
      for (const [key, value] of Object.entries(node)) {
        if (!key.startsWith("x-")) continue;
        count++;
        const places = placement[key];
        if (!places) {
          failures.push(`${pointer}/${key}: unknown extension (not in spec/vocabulary.schema.yaml)`);
          continue;
        }
        if (!places.includes(kind)) failures.push(`${pointer}/${key}: not allowed on a ${kind} (allowed: ${places.join(", ")})`);
        const error = vocabulary.check(key, value);
        if (error) failures.push(`${pointer}/${key}: ${error}`);
      }
    });
    expect(failures, failures.join("\n")).toEqual([]);
    expect(count).toBeGreaterThan(0);
  });

  it("every operation has a unique camelCase operationId", async () => {
    const doc = await loadBundled(file);
    const ids = operations(doc).map(({ method, path, operation }) => ({ at: `${method.toUpperCase()} ${path}`, id: operation.operationId }));
    const bad = ids.filter(({ id }) => typeof id !== "string" || !/^[a-z][a-zA-Z0-9]*$/.test(id));
    expect(bad).toEqual([]);
    const seen = new Map<Json | undefined, string>();
    const duplicates: string[] = [];
    for (const { at, id } of ids) {
      const first = seen.get(id);
      if (first) duplicates.push(`${String(id)}: ${first} and ${at}`);
      else seen.set(id, at);
    }
    expect(duplicates).toEqual([]);
  });

  it("x-transitions and x-replaced-by name operations (or schemas) of the same contract", async () => {
    const doc = await loadBundled(file);
    const ids = new Set(operations(doc).map(({ operation }) => operation.operationId));
    const schemas = schemaNames(doc);
    const failures: string[] = [];
    walkOpenApi(doc, ({ node, pointer }) => {
      const table = node["x-transitions"];
      if (isObject(table) && Array.isArray(table.transitions)) {
        const states = new Set(Array.isArray(table.states) ? table.states : []);
        table.transitions.forEach((t, i) => {
          if (!isObject(t)) return;
          if (t.on !== "time" && !ids.has(t.on)) failures.push(`${pointer}/x-transitions/transitions/${i}: on "${String(t.on)}" is not an operationId`);
          for (const end of [t.from, t.to]) if (!states.has(end as Json)) failures.push(`${pointer}/x-transitions/transitions/${i}: state "${String(end)}" is not listed in states`);
        });
      }
      const replacement = node["x-replaced-by"];
      if (typeof replacement === "string" && !ids.has(replacement) && !schemas.has(replacement.split(".")[0] ?? "")) {
        failures.push(`${pointer}/x-replaced-by: "${replacement}" is neither an operationId nor a schema`);
      }
    });
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("every discriminator maps to schemas that resolve and are branches of its union", async () => {
    const doc = await loadBundled(file);
    const failures: string[] = [];
    walkOpenApi(doc, ({ node, kind, pointer }) => {
      if (kind !== "schema" || !isObject(node.discriminator)) return;
      const branches = [...((node.oneOf ?? node.anyOf ?? []) as Json[])].map((b) => (isObject(b) ? b.$ref : undefined));
      const mapping = node.discriminator.mapping;
      if (!isObject(mapping)) return;
      for (const [value, target] of Object.entries(mapping)) {
        const ref = typeof target === "string" && !target.startsWith("#") ? `#/components/schemas/${target}` : target;
        if (typeof ref !== "string" || resolvePointer(doc, ref) === undefined) failures.push(`${pointer}: mapping "${value}" → ${String(target)} does not resolve`);
        else if (!branches.includes(ref)) failures.push(`${pointer}: mapping "${value}" → ${ref} is not a branch of the union`);
      }
    });
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("x-unspecified-operations does not list an operation the contract models", async () => {
    const doc = await loadBundled(file);
    const modelled = new Set(operations(doc).map(({ method, path }) => `${method} ${path}`));
    const entries = (doc["x-unspecified-operations"] ?? []) as JsonObject[];
    const clashes = entries.filter((e) => typeof e.path === "string" && typeof e.method === "string" && modelled.has(`${e.method} ${e.path}`));
    expect(clashes).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// spec/core.yaml: facts fixed by document 1
// ---------------------------------------------------------------------------------------------

const core = (): Promise<OpenApiDoc> => loadBundled("core.yaml");

const operationAt = async (method: string, path: string): Promise<JsonObject | undefined> => operations(await core()).find((o) => o.method === method && o.path === path)?.operation;

const schemaOf = async (name: string): Promise<JsonObject> => {
  const doc = await core();
  return resolvePointer(doc, `#/components/schemas/${name}`) as JsonObject;
};

const PROBLEM_SLUGS: Record<string, string> = {
  ClientDisconnectedProblem: "client-disconnected",
  ClientForbiddenProblem: "client-forbidden",
  ConflictProblem: "conflict",
  DisallowedResourceProblem: "disallowed-resource",
  DuplicateRulesProblem: "duplicate-rules",
  InvalidRequestProblem: "invalid-request",
  InvalidRulesProblem: "invalid-rules",
  NoncompliantRulesProblem: "noncompliant-rules",
  NotAuthorizedForFieldProblem: "not-authorized-for-field",
  NotAuthorizedForResourceProblem: "not-authorized-for-resource",
  OperationalDisconnectProblem: "operational-disconnect",
  ResourceNotFoundProblem: "resource-not-found",
  ResourceUnavailableProblem: "resource-unavailable",
  RuleCapProblem: "rule-cap",
  StreamingConnectionProblem: "streaming-connection",
  UnsupportedAuthenticationProblem: "unsupported-authentication",
  UsageCappedProblem: "usage-capped",
};

describe("spec/core.yaml (document 1)", () => {
  it("is OpenAPI 3.1.0 carrying the interface version label 2.166", async () => {
    const doc = await core();
    expect(doc.openapi).toBe("3.1.0");
    expect((doc.info as JsonObject).version).toBe("2.166");
  });

  it("addresses the API through {base_url} and problem types through x-problem-base, both with documented placeholders", async () => {
    const doc = await core();
    const [server] = doc.servers as JsonObject[];
    expect(server?.url).toBe("{base_url}");
    expect(((server?.variables as JsonObject).base_url as JsonObject).default).toBe("https://api.example.com");
    expect(String(server?.description)).toMatch(/RFC 2606/);
    const base = doc["x-problem-base"] as JsonObject;
    expect(base.default).toBe("https://api.example.com/2/problems");
    expect(String(base.description)).toMatch(/RFC 2606/);
  });

  it.each([
    ["createStreamLink", "post", "/2/posts/search/webhooks/{webhook_id}"],
    ["getPostsByIds", "get", "/2/posts"],
    ["requestToken", "post", "/oauth/request_token"],
    ["authorize", "get", "/oauth/authorize"],
    ["authenticate", "get", "/oauth/authenticate"],
    ["accessToken", "post", "/oauth/access_token"],
    ["invalidateAccessToken", "post", "/1.1/oauth/invalidate_token"],
    ["createBearerToken", "post", "/oauth2/token"],
    ["invalidateBearerToken", "post", "/oauth2/invalidate_token"],
  ])("has the fixed operationId %s on %s %s", async (id, method, path) => {
    expect((await operationAt(method, path))?.operationId).toBe(id);
  });

  it("models every endpoint the document names with a path", async () => {
    const named = [
      "post /2/posts/search/webhooks/{webhook_id}",
      "get /2/posts",
      "post /2/posts",
      "post /oauth/request_token",
      "get /oauth/authorize",
      "get /oauth/authenticate",
      "post /oauth/access_token",
      "post /1.1/oauth/invalidate_token",
      "post /1.1/oauth/invalidate_token.json",
      "post /oauth2/token",
      "post /oauth2/invalidate_token",
      "get /2/posts/search/recent",
      "get /2/posts/search/all",
      "get /2/posts/counts/recent",
      "get /2/posts/counts/all",
      // Path given, method not: modelled with a placeholder method that x-unspecified names.
      "post /2/posts/search/stream/rules",
      ...["bookmarks", "blocking", "muting", "pinned_lists", "posts", "mentions", "liked_posts", "followers", "following", "owned_lists", "followed_lists", "list_memberships"].map(
        (p) => `get /2/users/{id}/${p}`,
      ),
      "post /2/users/{id}/likes",
      "post /2/users/{id}/following",
      "get /2/news/search",
      "get /2/news/{id}",
      "get /2/connections",
      "delete /2/connections/all",
      "delete /2/connections/{endpoint_id}",
      "delete /2/connections",
      "get /2/activity/stream",
      "post /2/activity/subscriptions",
      "post /2/webhooks/replay",
      "post /2/account_activity/replay/webhooks/{webhook_id}/subscriptions/all",
      "get /2/notes/search/posts_eligible_for_notes",
      "get /2/notes/search/notes_written",
      "post /2/notes",
      "post /2/evaluate_note",
      "get /2/powerstream/rules",
    ];
    const modelled = operations(await core()).map(({ method, path }) => `${method} ${path}`);
    expect([...modelled].sort()).toEqual([...named].sort());
  });

  it("records the endpoints named without a path (or method) in x-unspecified-operations", async () => {
    const entries = (await core())["x-unspecified-operations"] as JsonObject[];
    const names = entries.map((e) => String(e.name));
    for (const expected of [
      "article draft",
      "article publish",
      "chunked media upload",
      "direct message block",
      "direct message unblock",
      "reverse-chronological home timeline",
      "quotes lookup",
      "bookmarks management",
    ]) {
      expect(names).toContain(expected);
    }
    expect(entries.filter((e) => e.tag === "Direct Messages" && e.method === "get")).toHaveLength(3);
    expect(entries.filter((e) => e.tag === "Direct Messages" && e.method === "post")).toHaveLength(3);
  });

  it("declares exactly the document's resource areas as tags, each described, and tags operations only with them", async () => {
    const doc = await core();
    const tags = (doc.tags as JsonObject[]).map((t) => t.name);
    expect([...tags].sort()).toEqual(
      [
        "Account Activity",
        "Articles",
        "Bookmarks",
        "Compliance",
        "Connections",
        "Direct Messages",
        "General",
        "Lists",
        "Marketplace",
        "Media",
        "MediaUpload",
        "News",
        "Spaces",
        "Stream",
        "Posts",
        "Users",
        "Webhooks",
      ].sort(),
    );
    for (const t of doc.tags as JsonObject[]) expect(String(t.description ?? "")).not.toBe("");
    for (const { operation } of operations(doc)) {
      expect(operation.tags).toBeDefined();
      for (const tag of operation.tags as string[]) expect(tags).toContain(tag);
    }
  });

  it("shapes create stream link exactly: webhook_id pattern, bearer token, field selection, 200 link response, Error or Problem otherwise", async () => {
    const doc = await core();
    const op = (await operationAt("post", "/2/posts/search/webhooks/{webhook_id}")) as JsonObject;
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(op.tags).toEqual(["Webhooks", "Stream"]);
    expect(op["x-added"]).toBe("2025-09-09");
    const params = (op.parameters as JsonObject[]).map((p) => resolvePointer(doc, String(p.$ref)) as JsonObject);
    expect(params.map((p) => p.name)).toEqual(["webhook_id", "post.fields", "expansions", "media.fields", "poll.fields", "user.fields", "place.fields"]);
    expect(params[0]).toMatchObject({ in: "path", required: true, schema: { type: "string", pattern: "^[0-9]{1,19}$" } });
    for (const p of params.slice(1)) expect(p).toMatchObject({ in: "query", required: false, style: "form", explode: false, schema: { type: "array", items: { type: "string" } } });
    expect(op.requestBody).toBeUndefined();
    const responses = op.responses as JsonObject;
    const okSchema = ((responses["200"] as JsonObject).content as JsonObject)["application/json"] as JsonObject;
    expect(okSchema.schema).toEqual({ $ref: "#/components/schemas/WebhookLinkResponse" });
    const other = resolvePointer(doc, String((responses.default as JsonObject).$ref)) as JsonObject;
    expect(Object.keys(other.content as JsonObject).sort()).toEqual(["application/json", "application/problem+json"]);

    const link = new ContractValidators(doc);
    const ptr = "#/components/schemas/WebhookLinkResponse";
    expect(link.check(ptr, { data: { provisioned: true } })).toBeUndefined();
    expect(link.check(ptr, { data: { provisioned: true }, errors: [] })).toBeDefined();
    expect(link.check(ptr, { data: { provisioned: "yes" } })).toBeDefined();
  });

  it("gives the Post, User, Media and Error objects the stated fields and limits", async () => {
    const doc = await core();
    const v = new ContractValidators(doc);
    const post = "#/components/schemas/Post";
    expect(v.check(post, { id: "1", text: "x".repeat(25000) })).toBeUndefined();
    expect(v.check(post, { id: "1", text: "x".repeat(25001) })).toBeDefined();
    expect(v.check(post, { text: "no id" })).toBeDefined();
    const source = ((await schemaOf("Post")).properties as JsonObject).source as JsonObject;
    expect(source).toMatchObject({ deprecated: true, "x-removed": "undated" });
    const props = (await schemaOf("Post")).properties as JsonObject;
    expect(props.paid_partnership).toMatchObject({ type: "boolean", "x-added": "2026-06-03" });
    expect(props.community_id).toMatchObject({ type: "string", "x-added": "2024-11-22" });
    const user = "#/components/schemas/User";
    expect(v.check(user, { verified_type: "government", affiliation: { user_id: ["1", "2"] } })).toBeUndefined();
    expect(v.check(user, { verified_type: "gold" })).toBeDefined();
    expect(v.check(user, { affiliation: { user_id: "1" } })).toBeDefined();
    expect(v.check("#/components/schemas/Media", { media_key: "k", type: "video", duration_ms: 1, public_metrics: { view_count: 3 } })).toBeUndefined();
    expect(v.check("#/components/schemas/Error", { code: 89, message: "m" })).toBeUndefined();
    expect(v.check("#/components/schemas/Error", { code: 2 ** 31, message: "m" })).toBeDefined();
    expect(v.check("#/components/schemas/Error", { message: "m" })).toBeDefined();
  });

  it("discriminates direct-message events by event_type, with participant_ids only on join and leave", async () => {
    const v = new ContractValidators(await core());
    const dm = "#/components/schemas/DmEvent";
    expect(v.check(dm, { event_type: "ParticipantsJoin", participant_ids: ["1"] })).toBeUndefined();
    expect(v.check(dm, { event_type: "ParticipantsLeave" })).toBeDefined();
    expect(v.check(dm, { event_type: "MessageCreate" })).toBeUndefined();
    expect(v.check(dm, { event_type: "MessageCreate", participant_ids: ["1"] })).toBeDefined();
    expect(String((await schemaOf("DmEvent"))["x-unspecified"])).toMatch(/event_type/);
  });

  it("catalogues the 17 problem subtypes and about:blank, each pinned to its own type", async () => {
    const doc = await core();
    const v = new ContractValidators(doc);
    const base = "https://api.example.com/2/problems";
    const any = await schemaOf("AnyProblem");
    const mapping = (any.discriminator as JsonObject).mapping as JsonObject;
    expect(mapping["about:blank"]).toBe("#/components/schemas/GenericProblem");
    expect((await schemaOf("GenericProblem"))["x-problem-type"]).toBe("about:blank");
    for (const [name, slug] of Object.entries(PROBLEM_SLUGS)) {
      const schema = await schemaOf(name);
      expect(schema["x-problem-type"], name).toBe(slug);
      expect(schema.allOf, name).toContainEqual({ $ref: "#/components/schemas/Problem" });
      expect(mapping[`{problem_base}/${slug}`], name).toBe(`#/components/schemas/${name}`);
      const typePointer = `#/components/schemas/${name}/allOf/1/properties/type`;
      for (const other of [...Object.values(PROBLEM_SLUGS)]) {
        const ok = v.check(typePointer, `${base}/${other}`) === undefined;
        expect(ok, `${name} accepting ${other}`).toBe(other === slug);
      }
      expect(v.check(typePointer, "about:blank"), name).toBeDefined();
    }
    expect(Object.keys(mapping)).toHaveLength(18);
    // The union takes the catalogue's required members into account.
    const anyPtr = "#/components/schemas/AnyProblem";
    expect(v.check(anyPtr, { type: `${base}/resource-not-found`, title: "t", parameter: "ids", value: "1", resource_id: "1", resource_type: "poll" })).toBeUndefined();
    expect(v.check(anyPtr, { type: `${base}/resource-not-found`, title: "t", parameter: "", value: "1", resource_id: "1", resource_type: "poll" })).toBeDefined();
    expect(v.check(anyPtr, { type: `${base}/resource-unavailable`, title: "t", parameter: "id", resource_id: "1", resource_type: "poll" })).toBeDefined();
    expect(v.check(anyPtr, { type: `${base}/invalid-request`, title: "t", errors: [{ message: "m", parameters: { ids: ["x"] } }] })).toBeUndefined();
    expect(v.check(anyPtr, { type: `${base}/invalid-request`, title: "t", errors: [] })).toBeDefined();
    expect(v.check(anyPtr, { type: "about:blank" })).toBeDefined();
  });

  it("documents the legacy envelope's codes 89 (HTTP 401) and 99 (HTTP 403)", async () => {
    const envelope = await schemaOf("LegacyErrorEnvelope");
    const codes = (envelope.examples as JsonObject[]).flatMap((e) => (e.errors as JsonObject[]).map((x) => x.code));
    expect(codes).toEqual(expect.arrayContaining([89, 99]));
    expect(String(envelope.description)).toMatch(/89.*401/s);
    expect(String(envelope.description)).toMatch(/99.*403/s);
    const token = (await operationAt("post", "/oauth2/token")) as JsonObject;
    expect(token.security).toEqual([{ basicAuth: [] }]);
    expect((token.responses as JsonObject)["403"]).toBeDefined();
  });

  it("keeps the OAuth 1.0a responses form-encoded with the named fields", async () => {
    const request = (await operationAt("post", "/oauth/request_token")) as JsonObject;
    const ok = (request.responses as JsonObject)["200"] as JsonObject;
    expect(Object.keys(ok.content as JsonObject)).toEqual(["application/x-www-form-urlencoded"]);
    expect(request["x-security-note"]).toMatch(/not requiring prior authentication/);
    const schema = await schemaOf("RequestTokenResponse");
    expect((schema.properties as JsonObject).oauth_callback_confirmed).toMatchObject({ const: "true" });
    expect((await schemaOf("AccessTokenResponse")).required).toEqual(["oauth_token", "oauth_token_secret", "user_id", "screen_name"]);
  });

  it("deprecates the old replay endpoint at 12:00 ET on 2026-03-25 in favour of POST /2/webhooks/replay", async () => {
    const old = (await operationAt("post", "/2/account_activity/replay/webhooks/{webhook_id}/subscriptions/all")) as JsonObject;
    const replacement = (await operationAt("post", "/2/webhooks/replay")) as JsonObject;
    expect(old.deprecated).toBe(true);
    expect(old["x-deprecated-at"]).toBe("2026-03-25T12:00:00-04:00");
    expect(old["x-replaced-by"]).toBe(replacement.operationId);
  });

  it("accepts only the dot-separated activity event types and keeps the PascalCase ones as legacy values", async () => {
    const v = new ContractValidators(await core());
    const type = await schemaOf("ActivityEventType");
    expect(type.enum).toHaveLength(12);
    expect(type["x-deprecated-at"]).toBe("2026-03-18");
    for (const legacy of type["x-legacy-values"] as string[]) {
      expect(v.check("#/components/schemas/ActivityEventType", legacy), legacy).toBeDefined();
    }
    expect(v.check("#/components/schemas/ActivitySubscriptionFilter", { user_id: "1", direction: "both" })).toBeDefined();
    expect(v.check("#/components/schemas/ActivitySubscriptionFilter", { user_id: "1" })).toBeUndefined();
  });

  it("keeps the app-only bearer token lifecycle as x-transitions on AppOnlyBearerToken with the one-per-app limit", async () => {
    const token = await schemaOf("AppOnlyBearerToken");
    const table = token["x-transitions"] as JsonObject;
    expect((table.transitions as JsonObject[]).map((t) => t.on)).toEqual(expect.arrayContaining(["createBearerToken", "invalidateBearerToken"]));
    const limits = (await operationAt("post", "/oauth2/token"))?.["x-limits"] as JsonObject[];
    expect(limits).toContainEqual(expect.objectContaining({ kind: "outstanding", max: 1, per: "app" }));
    expect(limits).toContainEqual(expect.objectContaining({ kind: "frequency", status: 403, code: 99 }));
  });

  it("marks every operation whose shapes the document does not show with x-unspecified", async () => {
    const shaped = new Set(["createStreamLink", "getPostsByIds", "requestToken", "accessToken", "invalidateAccessToken", "invalidateAccessTokenJson", "createBearerToken"]);
    for (const { operation } of operations(await core())) {
      if (shaped.has(String(operation.operationId))) continue;
      expect(typeof operation["x-unspecified"], String(operation.operationId)).toBe("string");
    }
  });
});
