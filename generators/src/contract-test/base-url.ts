/**
 * The address a suite's requests go to. Paths in a contract are relative to its server URL, and a
 * document whose server is a bare path (Swagger 2.0's `basePath: /api/v2/`, OpenAPI's
 * `servers: [{url: /api/v2}]`) serves them under that path on whatever host runs it. So
 * `--base-url http://host:9093` means `http://host:9093/api/v2` for such a package; a base URL that
 * carries a path of its own is taken as the user wrote it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** The first server URL of the contract a package was generated from (its contract.json), if any. */
function firstServerUrl(packageDir: string): string | undefined {
  try {
    const contract = JSON.parse(readFileSync(path.join(packageDir, "contract.json"), "utf8")) as { servers?: { url?: unknown }[] };
    const url = contract.servers?.[0]?.url;
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

export function suiteBaseUrl(baseUrl: string, packageDir: string): string {
  let given: URL;
  try {
    given = new URL(baseUrl);
  } catch {
    return baseUrl; // reported by the transport, with the URL, on the first request
  }
  if (given.pathname !== "/" && given.pathname !== "") return baseUrl;
  const server = firstServerUrl(packageDir);
  // Only a plain relative path: a template (`{base_url}`) or an absolute URL names no prefix we may assume.
  if (server === undefined || !/^\/[^{}]*$/.test(server)) return baseUrl;
  const prefix = server.replace(/\/+$/, "");
  return prefix === "" ? baseUrl : `${given.origin}${prefix}`;
}
