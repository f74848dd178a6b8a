/**
 * The package root: the client (`./client`) with the pieces shared by clients and servers (rules,
 * validation, OAuth 1.0a verification and its nonce store). Mock data (`./mock-data`), servers
 * (`./server`, `./receiver`), MCP (`./mcp`) and the contract-test engine (`./conformance`,
 * `./arazzo`) are on their subpaths only, so importing the root loads none of them.
 */
export * from "./client/index.js";
export * from "./shared/rules.js";
export * from "./shared/validation.js";
export * from "./oauth1/verify.js";
export * from "./oauth1/nonce-store.js";
