/** OAuth 1.0a: signing for clients, verification and nonce tracking for servers. */
export * from "./oauth1-sign.js";
export * from "./oauth1-verify.js";
export * from "./nonce-store.js";
