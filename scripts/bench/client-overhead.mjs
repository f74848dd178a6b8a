// Client overhead per call against a bare fetch, both to the same loopback server, interleaved.
// Prints JSON: median microseconds per call for each, over rounds of sequential calls.
import { createServer } from "node:http";
import { createCoreClient } from "@devplatform/core/client";

const body = JSON.stringify({ data: { provisioned: true } });
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const client = createCoreClient({ baseUrl: base, auth: { bearer: "t" }, retry: false, timeoutMs: Number(process.env.TIMEOUT ?? 30000) });

const bare = async () => {
  const res = await fetch(`${base}/2/posts/search/webhooks/1234567890?post.fields=id,text`, { method: "POST", headers: { authorization: "Bearer t" } });
  await res.json();
};
const typed = () => client.createStreamLink({ webhook_id: "1234567890", "post.fields": ["id", "text"] });

async function round(fn, n) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t) * 1000) / n;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let i = 0; i < 3; i++) {
  await round(bare, 200);
  await round(typed, 200);
} // warm up
const a = [];
const b = [];
for (let i = 0; i < 15; i++) {
  a.push(await round(bare, 300));
  b.push(await round(typed, 300));
}
server.close();
process.stdout.write(JSON.stringify({ bareFetchUs: median(a), clientUs: median(b) }));
