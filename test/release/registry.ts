/**
 * A real npm registry for the release tests: Verdaccio on a free loopback port with its own storage,
 * one user (its token in an .npmrc the test hands to npm), the toolkit's scopes and name served
 * from it and nothing else published there; any other package is proxied from the public registry.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT } from "../generator/helpers.js";

export interface Registry {
  readonly url: string;
  /** `//127.0.0.1:<port>/:_authToken=…`: the line that lets npm publish there. */
  readonly authLine: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** The public registry npm is configured with here (Verdaccio's uplink). */
function upstream(): string {
  const r = spawnSync("npm", ["config", "get", "registry"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() !== "" ? r.stdout.trim() : "https://registry.npmjs.org/";
}

/** Names the tests publish: served from the test registry only, never looked up upstream. */
export const LOCAL_PACKAGES = ["contractgen", "@contractgen/*", "@devplatform/*", "@acme/*"];

export async function startRegistry(dir: string): Promise<Registry> {
  mkdirSync(path.join(dir, "storage"), { recursive: true });
  const port = await freePort();
  const local = LOCAL_PACKAGES.map((p) => `  '${p}':\n    access: $all\n    publish: $authenticated\n`).join("");
  writeFileSync(
    path.join(dir, "config.yaml"),
    `storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 10
uplinks:
  upstream:
    url: ${upstream()}
packages:
${local}  '**':
    access: $all
    proxy: upstream
log: { type: stdout, format: pretty, level: warn }
`,
  );
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "node_modules/verdaccio/bin/verdaccio"), "--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = `http://127.0.0.1:${port}/`;
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    await exited;
  };
  // Up when it answers its ping.
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 150 || child.exitCode !== null) {
      await stop();
      throw new Error(`verdaccio did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(`${url}-/user/org.couchdb.user:release-test`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release-test", password: "release-test-password" }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) {
    await stop();
    throw new Error(`verdaccio gave no token (${res.status})`);
  }
  return { url, authLine: `//127.0.0.1:${port}/:_authToken=${token}`, stop };
}
