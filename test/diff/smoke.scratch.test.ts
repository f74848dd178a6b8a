import { it } from "vitest";
import { runDiffCommand } from "../../generators/src/diff/index.js";
it("smoke", async () => {
  const code = await runDiffCommand({ old: "spec/ads-audiences.yaml", new: "spec/ads-campaigns.yaml", allowBreaking: false, format: "text", cwd: process.cwd() });
  console.log("code", code);
});
