/**
 * The two transports, once each, with the official SDK's client: `contractgen mcp` over stdio as an
 * assistant starts it (a child process, the mock started in-process, nothing but the protocol on
 * stdout), and Streamable HTTP on loopback with each request's own credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveHttp } from "@contractgen/runtime/mcp";
import { mcpApi as core } from "@devplatform/core/mcp";
import { CLI, ROOT } from "../generator/helpers.js";
import { mockAuth, startMock, textOf, type RunningMock } from "./helpers.js";

describe("stdio: contractgen mcp", () => {
  it("serves a package's tools against the in-process mock, with no account", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--spec", "ads-audiences", "--read-only", "--profile", "claude-code"],
      cwd: ROOT,
      stderr: "pipe",
      // No ADS_AUDIENCES_* credentials: the mock's development credentials are used.
      env: { PATH: process.env["PATH"] ?? "" },
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "contractgen-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    const r = (await client.callTool({ name: "listProductCatalogs", arguments: {} })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    await client.close();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(r.isError, JSON.stringify(r)).toBeUndefined();
    expect(r.structuredContent?.["data"]).toEqual([expect.objectContaining({ id: "9000000200000055" })]);
    expect(stderr).toContain("in-process mock");
  });

  it("refuses an unknown package with a usage error", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(process.execPath, [CLI, "mcp", "--spec", "no-such-package"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(/cannot load no-such-package\/mcp/);
    expect(run.stdout).toBe("");
  });
});

describe("Streamable HTTP", () => {
  let mock: RunningMock;
  let http: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    mock = await startMock();
    // The server's own credentials lack a bearer token: each request brings its user's.
    const { bearer: _unused, ...auth } = mockAuth(mock);
    http = await serveHttp(core, { baseUrl: mock.url, auth, tools: ["getPostsByIds"] });
  });
  afterAll(async () => {
    await http.close();
    await mock.close();
  });

  const connectAs = async (token: string): Promise<Client> => {
    const client = new Client({ name: "contractgen-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  it("listens on loopback and passes each request's credentials through", async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const good = await connectAs(mock.credentials["bearerToken"] as string);
    const { tools } = await good.listTools();
    const ok = (await good.callTool({ name: "getPostsByIds", arguments: { ids: ["1"] } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    await good.close();
    expect(tools.map((t) => t.name)).toEqual(["getPostsByIds"]);
    expect(ok.isError, textOf(ok)).toBeUndefined();
    expect(ok.structuredContent).toHaveProperty("errors");

    const bad = await connectAs("someone-elses-expired-token");
    const refused = (await bad.callTool({ name: "getPostsByIds", arguments: { ids: ["1"] } })) as { isError?: boolean };
    await bad.close();
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/code 89/);
  });
});
