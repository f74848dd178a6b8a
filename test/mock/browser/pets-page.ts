/**
 * Opens the browser test's page: a package generated from the pet shelter contract into a temp
 * folder, page.ts bundled with it by esbuild, the bundle and msw's worker script served from
 * loopback, the page opened in headless Chromium and its worker started. Every wait is bounded;
 * close() releases the browser, the server and the folder, also when opening failed half way.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { FIXTURE, ROOT, runCli } from "../helpers.js";
import { PAGE_GLOBAL, type Operation, type Outcome, type PetsPage } from "./bridge.js";
import { serveStatic } from "./static-server.js";

export interface OpenPage {
  /** A Service Worker controlled the page once msw's worker had started. */
  readonly controlled: boolean;
  call(operation: Operation, args?: unknown): Promise<Outcome>;
  raw(operation: Operation, args?: unknown): Promise<Outcome>;
  answered(): Promise<readonly string[]>;
  close(): Promise<void>;
}

/** The longest any single step may take: launching, loading, one call. */
const STEP_MS = 15_000;

function within<T>(what: string, work: Promise<T>, log: readonly string[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${STEP_MS} ms\npage said:\n${log.join("\n")}`)), STEP_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The page's bundle: page.ts with msw, the runtime and the generated sources (as `pets-under-test`). */
async function bundle(generated: string): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, "test/mock/browser/page.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    alias: { "pets-under-test": path.join(generated, "src") },
    logLevel: "silent",
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error("esbuild wrote no bundle");
  return out.text;
}

export async function openPetsPage(executablePath: string): Promise<OpenPage> {
  const releases: (() => Promise<void> | void)[] = [];
  const close = async (): Promise<void> => {
    // Last acquired, first released: the browser before the server it loads from, the folder last.
    let first: unknown;
    for (const release of releases.splice(0).reverse()) {
      try {
        await release();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) throw first;
  };
  const log: string[] = [];
  try {
    // Under the workspace, so the generated code resolves @contractgen/runtime as a consumer's would.
    mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, ".tmp", "msw-browser-"));
    releases.push(() => rmSync(dir, { recursive: true, force: true }));
    const gen = await runCli(["generate", FIXTURE("pets.openapi.yaml"), "--out", dir, "-q"]);
    if (gen.code !== 0) throw new Error(`contractgen generate exited ${gen.code}:\n${gen.stderr}`);

    const server = await serveStatic({
      "/": { type: "text/html", body: `<!doctype html><meta charset="utf-8"><title>pets</title><script type="module" src="/page.js"></script>` },
      "/page.js": { type: "text/javascript", body: await bundle(dir) },
      // The worker script of the msw version installed, as `npx msw init` would copy it.
      "/mockServiceWorker.js": { type: "text/javascript", body: readFileSync(path.join(ROOT, "node_modules/msw/lib/mockServiceWorker.js")) },
    });
    releases.push(() => server.close());

    const browser = await chromium.launch({ executablePath, headless: true, timeout: STEP_MS });
    releases.push(() => browser.close());
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    page.on("pageerror", (error) => log.push(`pageerror: ${error.message}`));
    page.on("console", (message) => log.push(`console.${message.type()}: ${message.text()}`));
    await page.goto(`${server.origin}/`, { timeout: STEP_MS });
    await page.waitForFunction((name) => name in globalThis, PAGE_GLOBAL, { timeout: STEP_MS });

    const bridge = await page.evaluateHandle((name) => (globalThis as unknown as Record<string, PetsPage>)[name] as PetsPage, PAGE_GLOBAL);
    // An evaluation has no timeout of its own: each is raced against STEP_MS.
    const { controlled } = await within(
      "starting msw's worker",
      bridge.evaluate((b) => b.ready),
      log,
    );
    return {
      controlled,
      call: (operation, args = {}) =>
        within(
          operation,
          bridge.evaluate((b, [op, a]) => b.call(op, a), [operation, args] as const),
          log,
        ),
      raw: (operation, args = {}) =>
        within(
          `raw ${operation}`,
          bridge.evaluate((b, [op, a]) => b.raw(op, a), [operation, args] as const),
          log,
        ),
      answered: () =>
        within(
          "answered",
          bridge.evaluate((b) => b.answered()),
          log,
        ),
      close,
    };
  } catch (error) {
    await close();
    // What the page printed is most often why it never became ready.
    if (log.length === 0) throw error;
    throw new Error(`${error instanceof Error ? error.message : String(error)}\npage said:\n${log.join("\n")}`, { cause: error });
  }
}
