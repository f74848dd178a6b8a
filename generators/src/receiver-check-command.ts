/**
 * `contractgen test --receiver <url>`: checks a team's webhook/callback receiver against a generated
 * package's deliveries (valid ones must be accepted, invalid ones refused). The package's built
 * `dist/deliveries.js` supplies the examples, so the generator has no build-time dependency on code
 * it generates.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "./usage-error.js";

export interface ReceiverCheckCommandOptions {
  readonly cwd: string;
  /** The receiver's base URL. */
  readonly url: string;
  /** Packages whose deliveries to send (folder names under packagesDir). @default every package with deliveries */
  readonly specs?: readonly string[];
  /** @default "packages" */
  readonly packagesDir?: string;
  /** Send every delivery to the URL itself instead of the URL plus each delivery's route path. @default false */
  readonly single?: boolean;
  /** @default 1 */
  readonly seed?: number;
  readonly write: (line: string) => void;
}

export async function runReceiverCheck(options: ReceiverCheckCommandOptions): Promise<{ passed: number; failed: number }> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new UsageError(`--receiver must be an http(s) URL, got ${JSON.stringify(options.url)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--receiver must be an http(s) URL, got ${JSON.stringify(options.url)}`);
  const packagesDir = path.resolve(options.cwd, options.packagesDir ?? "packages");
  const names = options.specs && options.specs.length > 0 ? options.specs : existsSync(packagesDir) ? readdirSync(packagesDir).sort() : [];
  // Packages contractgen generated (a "contractgen" field in package.json) whose contract has
  // deliveries: a hand-written package with a deliveries module of its own (the mock server's) is none.
  const withDeliveries = names.filter((n) => existsSync(path.join(packagesDir, n, "src", "deliveries.ts")) && isGenerated(path.join(packagesDir, n)));
  if (withDeliveries.length === 0) throw new UsageError(`no package under ${path.relative(options.cwd, packagesDir) || "."} describes webhooks or callbacks`);
  const { checkReceiver } = await import("@contractgen/runtime/receiver-check");
  let passed = 0;
  let failed = 0;
  for (const name of withDeliveries) {
    const built = path.join(packagesDir, name, "dist", "deliveries.js");
    if (!existsSync(built)) throw new UsageError(`${path.relative(options.cwd, built)} is missing: build the package first (npm run build)`);
    const examples = (await import(pathToFileURL(built).href)) as Parameters<typeof checkReceiver>[0];
    options.write(`${name}: deliveries to ${options.single ? url.href : `${url.href.replace(/\/+$/, "")}/<delivery>`}`);
    const results = await checkReceiver(examples, {
      url: url.href,
      mode: options.single ? "single" : "routes",
      seed: options.seed ?? 1,
      onCase: (r) => {
        const got = r.error !== undefined ? `error: ${r.error}` : `got ${r.status ?? "?"}`;
        options.write(`  ${r.passed ? "ok  " : "FAIL"} ${r.deliveryId}${r.eventType !== undefined ? ` [${r.eventType}]` : ""}: ${r.what}, expected ${r.expected}, ${got}`);
        if (!r.passed) options.write(`       reproduce: ${r.curl}`);
      },
    });
    passed += results.filter((r) => r.passed).length;
    failed += results.filter((r) => !r.passed).length;
  }
  return { passed, failed };
}

/** Whether the folder holds a package contractgen generated. */
function isGenerated(dir: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { contractgen?: unknown }).contractgen === "object";
  } catch {
    return false;
  }
}
