import Fastify, { type FastifyInstance } from "fastify";
import { problemNotFound } from "@contractgen/runtime/server";
import { {{pluginName}} } from {{serverModule}};
import { handlers } from "./handlers/index.js";
import { security } from "./security.js";

{{about}}export async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify({ logger: process.env["LOG"] === "1" });
  app.setNotFoundHandler(problemNotFound);
  await app.register({{pluginName}}, { handlers, security });
  return app;
}
