import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { blockSequenceItems } from "../../generators/dist/load/block-items.js";
import { parseSourceText } from "../../generators/dist/load/source.js";
import { ROOT } from "../generator/helpers.js";

/** What the located `yaml` document says for each item of `workflows`, the positions being the same or absent. */
function located(text: string): { line: number; col: number }[] {
  const src = parseSourceText("/x/doc.yaml", "doc.yaml", text);
  const items = (src.data as { workflows: unknown[] }).workflows;
  return items.map((_, i) => src.locate(`/workflows/${i}`));
}

function countOf(text: string): number {
  return (YAML.parse(text) as { workflows: unknown[] }).workflows.length;
}

const REPO_FILES = ["core", "ads-audiences", "ads-campaigns"].map((n) => path.join(ROOT, "spec", `${n}.arazzo.yaml`));

describe("blockSequenceItems", () => {
  it.each(REPO_FILES)("gives the located document's position of every workflow in %s", (file) => {
    const text = readFileSync(file, "utf8");
    const fast = blockSequenceItems(text, "workflows", countOf(text));
    expect(fast).toBeDefined();
    expect(fast).toEqual(located(text));
  });

  const plain = "arazzo: 1.0.1\nworkflows:\n  - workflowId: a\n    steps: []\n  - workflowId: b\n    steps: []\ninfo: { title: x }\n";
  it.each([
    { name: "the repository's layout", text: plain },
    { name: "CRLF line ends", text: plain.replace(/\n/g, "\r\n") },
    { name: "items at column 0", text: "workflows:\n- workflowId: a\n  x: 1\n- workflowId: b\nnext: 1\n" },
    { name: "items indented 4, several spaces after the dash", text: "workflows:\n    -   workflowId: a\n        x: 1\n    -   workflowId: b\n" },
    { name: "comments and blank lines between items", text: "workflows: # the list\n\n  # first\n  - workflowId: a\n\n    # inside\n  - workflowId: b\n# trailing\n" },
    { name: "a block scalar whose lines look like items", text: "workflows:\n  - description: |\n      - not: an item\n      - also: not\n  - workflowId: b\n" },
    { name: "flow mappings as items", text: "workflows:\n  - { workflowId: a }\n  - { workflowId: b }\n" },
    { name: "quoted keys", text: "workflows:\n  - \"workflowId\": a\n  - 'workflowId': b\n" },
    { name: "the key last in the file, no final line end", text: "arazzo: 1.0.1\nworkflows:\n  - workflowId: a" },
  ])("equals the located document for $name", ({ text }) => {
    const fast = blockSequenceItems(text, "workflows", countOf(text));
    expect(fast).toBeDefined();
    expect(fast).toEqual(located(text));
  });

  it.each([
    { name: "an item whose value starts on the next line", text: "workflows:\n  -\n    workflowId: a\n" },
    { name: "an anchored item", text: "workflows:\n  - &w\n    workflowId: a\n" },
    { name: "an alias as an item", text: "a: &w { workflowId: a }\nworkflows:\n  - *w\n" },
    { name: "a tab before an item", text: "workflows:\n\t- workflowId: a\n" },
    { name: "a flow sequence", text: "workflows: [{ workflowId: a }]\n" },
    { name: "a line between column 0 and the items' indentation", text: "workflows:\n    - workflowId: a\n  - workflowId: b\n" },
    { name: "a document marker after the items", text: "workflows:\n  - workflowId: a\n---\nx: 1\n" },
    { name: "the key twice", text: "workflows:\n  - workflowId: a\nworkflows:\n  - workflowId: b\n" },
    { name: "a multi-line quoted scalar whose continuation looks like an item", text: 'workflows:\n  - summary: "one\n  - two"\n' },
    { name: "a nested sequence", text: "workflows:\n  - - workflowId: a\n" },
  ])("leaves $name to the located document", ({ text }) => {
    let count = 0;
    try {
      count = countOf(text);
    } catch {
      count = 1; // a text `yaml` refuses: whatever the count, the lines must not be read
    }
    expect(blockSequenceItems(text, "workflows", count)).toBeUndefined();
  });

  it("is undefined when the data holds another number of items than the lines show", () => {
    expect(blockSequenceItems(plain, "workflows", 3)).toBeUndefined();
    expect(blockSequenceItems(plain, "workflows", 2)).toHaveLength(2);
  });
});
