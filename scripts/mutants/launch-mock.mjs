// @ts-check
/**
 * Starts one built copy of the mock server on a free loopback port and prints its URL. Replies are
 * not checked against the contract by the mock itself (as the teeth test stages broken servers): a
 * server under test does not validate its own answers, so what a mutant breaks reaches the wire
 * and only the suite can notice it.
 */
import { pathToFileURL } from "node:url";

const entry = process.argv[2];
if (!entry) throw new Error("usage: launch-mock.mjs <dist/index.js of a mock-server build>");
/** @type {{ startMockServer(o: { port: number; host: string; validateResponses: boolean }): Promise<{ url: string; close(): Promise<void> }> }} */
const mod = await import(pathToFileURL(entry).href);
const server = await mod.startMockServer({ port: 0, host: "127.0.0.1", validateResponses: false });
// The ids no list operation gives (what a team passes with --values), from the same build.
/** @type {{ knownValues(state: unknown): Record<string, string> }} */
const target = await import(new URL("target.js", pathToFileURL(entry)).href);
const values = target.knownValues(/** @type {{ state: unknown }} */ (/** @type {unknown} */ (server)).state);
const stop = () => void server.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
process.stdout.write(`listening ${server.url} ${JSON.stringify(values)}\n`);
