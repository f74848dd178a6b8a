// The contracts of this repository and the packages they become: `npx contractgen generate` reads
// this file (flags such as --scope or --packages-dir override it). Written for `contractgen init`'s
// format; docs/configuration.md lists every option.
import { defineConfig } from "contractgen/config";

export default defineConfig({
  scope: "@devplatform",
  specs: [
    { spec: "spec/core.yaml", out: "packages/core" },
    { spec: "spec/ads-audiences.yaml", out: "packages/ads-audiences" },
    { spec: "spec/ads-campaigns.yaml", out: "packages/ads-campaigns" },
  ],
});
