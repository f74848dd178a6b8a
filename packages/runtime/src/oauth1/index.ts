/** OAuth 1.0a: signing for clients, verification and nonce tracking for servers. */
export * from "./sign.js";
export * from "./verify.js";
export * from "./nonce-store.js";
