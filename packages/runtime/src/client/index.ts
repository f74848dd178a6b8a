/**
 * `@contractgen/runtime/client`: everything a generated client runs on, and nothing else: the
 * transport, authentication (OAuth 1.0a signing included), retries, pagination, streams, batches,
 * identifier hashing, the problem and error classes and the caller. No server, mock, MCP or
 * contract-test code, and no Node-only import: a browser bundle of a client holds only this.
 */
export * from "../shared/problem.js";
export * from "./errors.js";
export * from "../shared/security.js";
export * from "./encoding.js";
export * from "../oauth1/sign.js";
export * from "./auth.js";
export * from "./app-only-token.js";
export * from "./retry.js";
export * from "./signals.js";
export * from "./url.js";
export * from "./body.js";
export * from "./response-error.js";
export * from "./transport.js";
export * from "./pagination.js";
export * from "./stream.js";
export * from "./batch.js";
export * from "./hash.js";
export * from "./hashing-plan.js";
export * from "./client.js";
