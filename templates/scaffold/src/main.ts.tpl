import { buildApp } from "./app.js";

// PORT and HOST choose where to listen; loopback unless told otherwise.
const title = {{title}};
const app = await buildApp();
const address = await app.listen({ port: Number(process.env["PORT"] ?? {{port}}), host: process.env["HOST"] ?? "127.0.0.1" });
console.log(`${title} listening on ${address}`);
