/**
 * The workflow documents beside the contracts (`spec/<name>.arazzo.yaml`): each states facts of its
 * own document, cites where, and names only operations of its own contract.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const SPEC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../spec");
const DOC: Record<string, string> = { core: "doc1", "ads-audiences": "doc2", "ads-campaigns": "doc3" };
const files = readdirSync(SPEC)
  .filter((f) => f.endsWith(".arazzo.yaml"))
  .sort();

interface Workflow {
  workflowId: string;
  description?: string;
  steps: { operationId: string }[];
}

it("has a workflow document beside each of the three contracts", () => {
  expect(files).toEqual(["ads-audiences.arazzo.yaml", "ads-campaigns.arazzo.yaml", "core.arazzo.yaml"]);
});

describe.each(files)("spec/%s", (file) => {
  const name = file.replace(/\.arazzo\.yaml$/, "");
  const doc = parse(readFileSync(path.join(SPEC, file), "utf8")) as { sourceDescriptions: { url: string }[]; workflows: Workflow[] };
  const contract = parse(readFileSync(path.join(SPEC, `${name}.yaml`), "utf8")) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ids = new Set(Object.values(contract.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId)));

  it("describes its own contract", () => {
    expect(doc.sourceDescriptions.map((s) => s.url)).toEqual([`./${name}.yaml`]);
  });

  it("cites, for every workflow, the section of its document the fact comes from", () => {
    for (const wf of doc.workflows) expect(wf.description ?? "", wf.workflowId).toMatch(new RegExp(`${DOC[name]} [A-Z]`));
  });

  it("names only operations of its contract", () => {
    for (const wf of doc.workflows) for (const step of wf.steps) expect(ids.has(step.operationId), `${wf.workflowId}: ${step.operationId}`).toBe(true);
  });
});
