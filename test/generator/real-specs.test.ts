import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildModel, generate, loadSpec, type Reporter, type Target } from "../../generators/dist/index.js";
import { ROOT, typecheck, workspaceTmpDir } from "./helpers.js";

const quiet: Reporter = { step() {}, info() {}, debug() {} };
const EXAMPLES = path.join(ROOT, "node_modules/@readme/oas-examples");

/** Every document shipped in @readme/oas-examples: Swagger 2.0 (converted on load), OpenAPI 3.0 and 3.1. */
function oasExamples(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(json|ya?ml)$/.test(entry.name) && /^\s*(openapi:|swagger:|\{[\s\S]{0,300}"(openapi|swagger)")/m.test(readFileSync(p, "utf8").slice(0, 2000))) out.push(p);
    }
  };
  for (const v of ["2.0", "3.0", "3.1"]) walk(path.join(EXAMPLES, v));
  return out.sort();
}

/**
 * Generates every spec into one folder, then type-checks them all in one tsc run, with any consumer
 * files given (path under the folder → source) written in first.
 */
async function generateAndTypecheck(specs: readonly string[], consumers: Readonly<Record<string, string>> = {}): Promise<void> {
  // Inside the workspace, so generated imports (@contractgen/runtime, ajv) resolve from node_modules.
  const dir = workspaceTmpDir("real-");
  const targets: Target[] = specs.map((spec, i) => ({
    specPath: spec,
    outDir: path.join(dir, `p${i}`),
    packageName: `@real/p${i}`,
    name: `p${i}`,
  }));
  await generate(targets, { cwd: ROOT, reporter: quiet, force: true, cacheDir: path.join(dir, ".cache") });
  for (const [file, source] of Object.entries(consumers)) writeFileSync(path.join(dir, file), source);
  const base = JSON.parse(readFileSync(path.join(dir, "p0/tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  const { rootDir: _rootDir, outDir: _outDir, ...options } = base.compilerOptions;
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...options, noEmit: true }, include: ["p*/src/**/*.ts"] }));
  const tc = typecheck(dir);
  expect(tc.output).toBe("");
  expect(tc.ok).toBe(true);
}

describe("real specs nobody here wrote", () => {
  const examples = oasExamples();

  it("finds the @readme/oas-examples corpus", () => {
    expect(examples.length).toBeGreaterThan(120);
    expect(examples.some((f) => f.includes("/2.0/"))).toBe(true);
  });

  // 129 documents, every artifact (the MCP module included), one tsc run: about 190 s on a
  // shared 2-core machine under a load average of 12 (103 s generating, 90 s type-checking).
  it("generates and type-checks every document in @readme/oas-examples (Swagger 2.0, OpenAPI 3.0 and 3.1)", async () => {
    await generateAndTypecheck(examples);
  }, 300_000);

  it("generates and type-checks GitHub's REST API description (@octokit/openapi), with a typed receiver for its webhooks", async () => {
    const description = path.join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
    // Every x-webhooks operation (OpenAPI 3.0's spelling of webhooks) is a delivery, named by its operationId.
    const source = JSON.parse(readFileSync(description, "utf8")) as { "x-webhooks": Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(source["x-webhooks"]).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const model = buildModel(await loadSpec(description, { cwd: ROOT }), "github");
    expect(ids.length).toBeGreaterThan(250);
    expect(model.deliveries.map((d) => d.id)).toEqual(ids);
    // A consumer of the receiver: payloads are typed per delivery; the @ts-expect-error lines must fail.
    const consumer = `import type { P0ReceiverHandlers } from "./receiver.js";
export const handlers: P0ReceiverHandlers = {
  issuesOpened: ({ body }) => { const n: number = body.issue.number; const a: "opened" = body.action; void n; void a; },
  // @ts-expect-error an opened issue's action is "opened"
  issuesClosed: ({ body }) => { const a: "opened" = body.action; void a; },
  // @ts-expect-error no such delivery
  issuesTeleported: () => undefined,
};
`;
    await generateAndTypecheck([description], { "p0/src/consumer-check.ts": consumer });
  }, 600_000);
});
