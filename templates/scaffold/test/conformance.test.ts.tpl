import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "@contractgen/runtime/conformance";
import { validateResponse } from {{validatorsModule}};
import { plan } from {{planModule}};
import { buildApp } from "../src/app.js";

// The contract's generated conformance suite, run against this app: each failing case is something
// still to implement (stubs answer 501). With CONTRACT_BASE_URL set it tests that server instead.
if (!process.env["CONTRACT_BASE_URL"]) {
  const app = await buildApp();
  process.env["CONTRACT_BASE_URL"] = await app.listen({ port: 0, host: "127.0.0.1" });
  afterAll(() => app.close());
}

runConformance({ afterAll, beforeAll, describe, expect, it }, plan, validateResponse as never);
