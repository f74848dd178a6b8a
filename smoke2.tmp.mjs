import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { startMockServer } from "@devplatform/mock-server";
import { mcpApi } from "@devplatform/ads-audiences/mcp";
import * as core from "@devplatform/core/mcp";
import { createMcpServer, authFromCredentials } from "@contractgen/runtime/mcp";
const mock = await startMockServer({ port: 0 });
const c = mock.credentials;
console.log(c);
const auth = authFromCredentials({ bearerToken: c.bearerToken, apiKey: c.apiKey, apiSecret: c.apiSecret, accessToken: c.accessToken, accessTokenSecret: c.accessTokenSecret });
async function connect(api, opts={}) {
  const server = createMcpServer(api, { baseUrl: mock.url, auth, ...opts });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(b);
  await client.listTools();
  return client;
}
const client = await connect(mcpApi);
const calls = [["listProductCatalogs", {}], ["createProductCatalog", {name: "Shoes"}], ["listProductCatalogs", {}], ["getProductSet", {product_catalog_id: "nope", product_set_id: "nope"}]];
for (const [name, args] of calls) {
  try { const r = await client.callTool({ name, arguments: args }); console.log(name, JSON.stringify(r).slice(0, 700)); } catch (e) { console.log("THROW", name, e.message.slice(0, 500)); }
}
const cc = await connect(core.mcpApi, { auth: { bearer: "wrong" } });
for (const [name, args] of [["getPostsByIds", {ids: ["1"]}], ["invalidateBearerToken", {}], ["createPost", {body: {text: "hi"}}]]) {
  try { const r = await cc.callTool({ name, arguments: args }); console.log(name, JSON.stringify(r).slice(0, 700)); } catch (e) { console.log("THROW", name, e.message.slice(0, 500)); }
}
await mock.close(); process.exit(0);
