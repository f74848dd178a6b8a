/**
 * Construct fixtures generated together: one `generate` call for every fixture, then one `tsc` run
 * that type-checks all packages plus per-fixture type assertions and emits JavaScript, so tests
 * import the generated modules as a consumer would.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generate, type Reporter, type Target } from "../../generators/dist/index.js";
import { ROOT, TSC, workspaceTmpDir } from "../generator/helpers.js";

export const CONSTRUCTS = path.join(ROOT, "test/fixtures/constructs");

export interface Fixture {
  /** Folder name of the generated package and key for `assertions`. */
  readonly name: string;
  /** Spec path relative to test/fixtures/constructs. */
  readonly spec: string;
  /**
   * A TypeScript module type-checked with the package: imports from `../<name>/src/…`, and
   * `// @ts-expect-error` lines prove what the types refuse.
   */
  readonly assertions?: string;
}

export interface Built {
  readonly dir: string;
  /** tsc diagnostics per fixture name (`""` for lines that name no fixture). */
  readonly diagnostics: ReadonlyMap<string, readonly string[]>;
  /** Everything tsc printed. */
  readonly output: string;
  /** The emitted JavaScript of `<name>/src/<module>.ts`. */
  load<T = Record<string, unknown>>(name: string, module: string): Promise<T>;
  /** The generated source text of `<name>/<file>`. */
  source(name: string, file: string): string;
}

const quiet: Reporter = { step() {}, info() {}, debug() {} };

export async function buildFixtures(fixtures: readonly Fixture[]): Promise<Built> {
  const dir = workspaceTmpDir("constructs-");
  const targets: Target[] = fixtures.map((f) => ({
    specPath: path.join(CONSTRUCTS, f.spec),
    outDir: path.join(dir, f.name),
    packageName: `@constructs/${f.name}`,
    name: f.name,
  }));
  await generate(targets, { cwd: ROOT, reporter: quiet, force: true, cacheDir: path.join(dir, ".cache") });

  const checks = path.join(dir, "checks");
  mkdirSync(checks, { recursive: true });
  for (const f of fixtures) if (f.assertions) writeFileSync(path.join(checks, `${f.name}.ts`), f.assertions);

  const own = JSON.parse(readFileSync(path.join(dir, fixtures[0]!.name, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  const { rootDir: _r, outDir: _o, ...options } = own.compilerOptions;
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...options, rootDir: ".", outDir: "out", declarationMap: false, sourceMap: false },
      include: [...fixtures.map((f) => `${f.name}/src/**/*.ts`), "checks/*.ts"],
    }),
  );
  const r = spawnSync(process.execPath, [TSC, "-p", dir, "--pretty", "false"], { encoding: "utf8", cwd: dir });
  // The compiled validators ship as JavaScript beside src/ (a package build keeps them next to dist/).
  for (const f of fixtures) {
    const compiled = path.join(dir, f.name, "compiled");
    if (existsSync(compiled)) cpSync(compiled, path.join(dir, "out", f.name, "compiled"), { recursive: true });
  }
  const output = `${r.stdout}${r.stderr}`;
  const diagnostics = new Map<string, string[]>();
  for (const line of output.split("\n").filter((l) => /error TS\d+/.test(l))) {
    const m = /^(?:checks\/)?([^/(]+)/.exec(line);
    const name = fixtures.find((f) => f.name === m?.[1]?.replace(/\.ts$/, ""))?.name ?? "";
    diagnostics.set(name, [...(diagnostics.get(name) ?? []), line]);
  }
  return {
    dir,
    diagnostics,
    output,
    load: async <T>(name: string, module: string) => (await import(pathToFileURL(path.join(dir, "out", name, "src", `${module}.js`)).href)) as T,
    source: (name, file) => readFileSync(path.join(dir, name, file), "utf8"),
  };
}

/** One request as fetch received it. */
export interface Captured {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly contentType: string | null;
  /** The raw request, for multipart bodies (`formData()`). */
  readonly request: Request;
}

/** A fetch that records each request and answers with `respond` (default: 204). */
export function recordingFetch(respond: (req: Request) => Response | Promise<Response> = () => new Response(null, { status: 204 })): {
  fetch: typeof fetch;
  calls: Captured[];
} {
  const calls: Captured[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const copy = request.clone();
    const text = request.body ? await request.text() : undefined;
    calls.push({ method: request.method, url: request.url, headers: request.headers, body: text, contentType: request.headers.get("content-type"), request: copy });
    return respond(copy.clone());
  }) as typeof fetch;
  return { fetch: fetchFn, calls };
}
