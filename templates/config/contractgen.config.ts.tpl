// contractgen's configuration: what `contractgen generate`, `check` and `scaffold` do when run
// without arguments. Flags on the command line override it. Every option: docs/configuration.md.
import { defineConfig } from "contractgen/config";

export default defineConfig({
  // npm scope of the generated packages' names.
  scope: {{scope}},

  // Each spec and the folder its package goes to. Add `name` to choose the npm name, and
  // `artifacts` to generate only some of: types, operations, validators, problems, client, server,
  // mocks, conformance (what they import comes with them; ["client"] is a client-only package).
  specs: {{specs}},

  // Artifacts of every package that does not list its own.
  // artifacts: ["client"],

  // Templates overriding the built-in ones by path (scaffold/src/app.ts.tpl …): docs/templates.md.
  // templates: "templates",

  // Server projects `contractgen scaffold` creates and keeps in step with their contract.
  // scaffold: [{ source: "spec/core.yaml", out: "servers/core" }],
});
