/**
 * Shared set-up of the MCP tests: the mock server, and an MCP client of the official SDK connected
 * in memory to a server over a generated package's tools. The SDK's client checks every
 * `structuredContent` against the tool's `outputSchema` itself, so each successful call in these
 * tests is also a check that the two agree.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { startMockServer } from "@devplatform/mock-server";
import { authFromCredentials, createMcpServer, type McpApi, type McpServerOptions } from "@contractgen/runtime/mcp";

export type RunningMock = Awaited<ReturnType<typeof startMockServer>>;

export async function startMock(): Promise<RunningMock> {
  return startMockServer({ port: 0, host: "127.0.0.1" });
}

/** Every credential the mock hands out, as `contractgen mcp` builds them from the environment. */
export function mockAuth(mock: RunningMock) {
  const c = mock.credentials;
  return authFromCredentials({
    ...(c["bearerToken"] ? { bearerToken: c["bearerToken"] } : {}),
    ...(c["apiKey"] ? { apiKey: c["apiKey"] } : {}),
    ...(c["apiSecret"] ? { apiSecret: c["apiSecret"] } : {}),
    ...(c["accessToken"] ? { accessToken: c["accessToken"] } : {}),
    ...(c["accessTokenSecret"] ? { accessTokenSecret: c["accessTokenSecret"] } : {}),
  });
}

/** A fetch that counts the requests that reach the network. */
export function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let n = 0;
  return {
    fetch: (input, init) => {
      n++;
      return fetch(input, init);
    },
    count: () => n,
  };
}

/** An SDK client connected (in memory) to an MCP server for `api`. */
export async function connect(api: McpApi, options: McpServerOptions): Promise<Client> {
  const server = createMcpServer(api, options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "contractgen-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}
