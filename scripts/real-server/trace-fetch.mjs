// Records every request the contract suite sends, with the test that sent it and the answer's
// status, as one JSON line each in $TRACE_FILE. Loaded before the suite, it changes nothing the suite
// does: it wraps the global fetch and passes everything through.
//
//   TRACE_FILE=/tmp/run/trace.jsonl NODE_OPTIONS="--import $PWD/scripts/real-server/trace-fetch.mjs" \
//     scripts/real-server/pdns.sh /tmp/run
//
// scripts/real-server/coverage.mjs reads the file: which operations got a valid request answered 2xx.
import { appendFileSync } from "node:fs";

const file = process.env.TRACE_FILE;
const original = globalThis.fetch;
if (file && typeof original === "function") {
  globalThis.fetch = async function traced(input, init) {
    const url = String(input instanceof Request ? input.url : input);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const test = globalThis.__vitest_worker__?.current?.name;
    const body = typeof init?.body === "string" ? init.body.slice(0, 2000) : undefined;
    const entry = { at: Date.now(), test, method, url, ...(body !== undefined ? { body } : {}) };
    try {
      const res = await original(input, init);
      let text;
      try {
        text = (await res.clone().text()).slice(0, 600);
      } catch {
        text = undefined;
      }
      appendFileSync(file, `${JSON.stringify({ ...entry, status: res.status, type: res.headers.get("content-type"), answer: text })}\n`);
      return res;
    } catch (error) {
      appendFileSync(file, `${JSON.stringify({ ...entry, error: String(error?.cause?.code ?? error) })}\n`);
      throw error;
    }
  };
}
