/**
 * The workflow documents beside the contracts (`spec/<name>.arazzo.yaml`): each states facts of its
 * own document, cites where, and names operations of its own contract, or of another of the three
 * through a source description (`$sourceDescriptions.<name>.<operationId>`).
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

/** The operationIds of `spec/<name>.yaml`. */
function operationIds(name: string): Set<string | undefined> {
  const contract = parse(readFileSync(path.join(SPEC, `${name}.yaml`), "utf8")) as { paths: Record<string, Record<string, { operationId?: string }>> };
  return new Set(Object.values(contract.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId)));
}

it("has a workflow document beside each of the three contracts", () => {
  expect(files).toEqual(["ads-audiences.arazzo.yaml", "ads-campaigns.arazzo.yaml", "core.arazzo.yaml"]);
});

describe.each(files)("spec/%s", (file) => {
  const name = file.replace(/\.arazzo\.yaml$/, "");
  const doc = parse(readFileSync(path.join(SPEC, file), "utf8")) as { sourceDescriptions: { name: string; url: string }[]; workflows: Workflow[] };
  const ids = operationIds(name);

  it("describes its own contract first, and only the repository's contracts beside it", () => {
    expect(doc.sourceDescriptions[0]?.url).toBe(`./${name}.yaml`);
    for (const s of doc.sourceDescriptions) expect(Object.keys(DOC).map((n) => `./${n}.yaml`)).toContain(s.url);
  });

  it("cites, for every workflow, the section of its document the fact comes from", () => {
    for (const wf of doc.workflows) expect(wf.description ?? "", wf.workflowId).toMatch(new RegExp(`${DOC[name]} [A-Z]`));
  });

  it("names only operations of its contract, or of the source description a step names", () => {
    for (const wf of doc.workflows)
      for (const step of wf.steps) {
        const other = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId);
        const source = other ? doc.sourceDescriptions.find((s) => s.name === other[1]) : undefined;
        const known = other ? source !== undefined && operationIds(source.url.slice(2, -5)).has(other[2]) : ids.has(step.operationId);
        expect(known, `${wf.workflowId}: ${step.operationId}`).toBe(true);
      }
  });
});
