/**
 * Workflows stated beside a contract: an Arazzo 1.0 document named like the spec
 * (`spec/core.yaml` → `spec/core.arazzo.yaml`). Each workflow becomes a case of the generated
 * conformance suite. Everything the suite would trip over at run time (an unknown operation or
 * parameter, a condition that does not parse, a step referring to a later one) is refused here with
 * its file:line:col, the pointer and the fix.
 */
import path from "node:path";
import { ConditionSyntaxError, JsonPathSyntaxError, embedded, expressionsIn, parseCondition, parseExpression, parseJsonPath } from "@contractgen/runtime/arazzo";
import type { WorkflowPlan, WorkflowStep } from "@contractgen/runtime/conformance";
import { SpecError, toPointer, type SpecIssue } from "../load/errors.js";
import { blockSequenceItems } from "../load/block-items.js";
import { displayPathOf, readSourceFile, type SourceFile } from "../load/source.js";
import type { ApiModel } from "../model/ir.js";
import { foreignOperation } from "../emit/conformance/wire.js";
import { workflowsPathFor } from "./path.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Step fields contractgen test does not run: refused rather than silently ignored. */
const UNSUPPORTED_STEP = ["operationPath", "workflowId", "onSuccess", "onFailure"] as const;

/** Loads another OpenAPI document a workflow's steps call (an absolute path inside the spec's folder) as a model. */
export type SourceLoader = (absPath: string, name: string) => Promise<ApiModel>;

/** The prefix of a step's operationId naming an operation of another source description (Arazzo 1.0 §4.6.4). */
const SOURCE_PREFIX = "$sourceDescriptions.";

/** `$sourceDescriptions.<name>.<operationId>` split in two; undefined for an operation of the contract itself. */
function sourced(opId: unknown): { name: string; id: string } | undefined {
  if (typeof opId !== "string" || !opId.startsWith(SOURCE_PREFIX)) return undefined;
  const [name = "", ...rest] = opId.slice(SOURCE_PREFIX.length).split(".");
  return { name, id: rest.join(".") };
}

/**
 * Reads and checks the workflow document beside `specPath` against the contract's operations, and
 * against the operations of the other OpenAPI documents its `sourceDescriptions` name (each loaded
 * with `loadSource`, and only from the spec's own folder: a workflow document reads nothing outside it).
 * @returns the workflows in document order (none when there is no document) and the file read
 */
export async function loadWorkflows(specPath: string, cwd: string, model: ApiModel, loadSource?: SourceLoader): Promise<{ workflows: WorkflowPlan[]; file?: string }> {
  const specAbs = path.resolve(cwd, specPath);
  const abs = workflowsPathFor(specAbs);
  if (abs === undefined) return { workflows: [] };
  const src = await readSourceFile(abs, displayPathOf(abs, cwd));
  const issues: SpecIssue[] = [];
  const at = (segs: readonly (string | number)[], message: string, fix: string): void => {
    const pointer = toPointer(segs);
    const { line, col } = src.locate(pointer);
    issues.push({ file: src.displayPath, line, col, pointer, message, fix });
  };
  const others = await otherSources(src, specAbs, loadSource, at);
  if (issues.length > 0) throw new SpecError(issues);
  const workflows = readDocument(src, model, others, at);
  if (issues.length > 0) throw new SpecError(issues);
  return { workflows, file: abs };
}

type Report = (segs: readonly (string | number)[], message: string, fix: string) => void;

/** The source names steps call through `$sourceDescriptions.<name>.<operationId>`. */
function calledSources(doc: Obj): Set<string> {
  const names = new Set<string>();
  for (const wf of Array.isArray(doc["workflows"]) ? doc["workflows"] : []) {
    if (!isObj(wf) || !Array.isArray(wf["steps"])) continue;
    for (const step of wf["steps"]) {
      const id = isObj(step) ? step["operationId"] : undefined;
      const other = sourced(id);
      if (other !== undefined) names.add(other.name);
    }
  }
  return names;
}

/**
 * The models of the other OpenAPI documents the steps call, by source name. The contract's own
 * source (its url names the spec itself) is not among them. Each must be a relative url inside the
 * spec's folder: the workflow document is as untrusted as the spec.
 */
async function otherSources(src: SourceFile, specAbs: string, loadSource: SourceLoader | undefined, at: Report): Promise<Map<string, ApiModel>> {
  const out = new Map<string, ApiModel>();
  const doc = src.data;
  if (!isObj(doc)) return out;
  const called = calledSources(doc);
  if (called.size === 0) return out;
  const list = Array.isArray(doc["sourceDescriptions"]) ? doc["sourceDescriptions"] : [];
  const folder = path.dirname(specAbs);
  for (const [i, sd] of list.entries()) {
    if (!isObj(sd) || typeof sd["name"] !== "string" || !called.has(sd["name"])) continue;
    const name = sd["name"];
    const segs = ["sourceDescriptions", i];
    const url = sd["url"];
    if (sd["type"] !== undefined && sd["type"] !== "openapi") {
      at([...segs, "type"], `source ${name} is of type ${JSON.stringify(sd["type"])}: steps can call only operations of OpenAPI documents`, "point the step at an operation of an openapi source");
      continue;
    }
    if (typeof url !== "string" || /^[a-z][a-z0-9+.-]*:/i.test(url) || path.isAbsolute(url)) {
      at([...segs, "url"], `source ${name} must be a relative path to an OpenAPI document beside the contract`, "write url: ./other.yaml (a file in the contract's folder)");
      continue;
    }
    const target = path.resolve(folder, url);
    const rel = path.relative(folder, target);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
      at(
        [...segs, "url"],
        rel === "" ? `source ${name} is the contract itself` : `source ${name} (${url}) lies outside the contract's folder, which a workflow document may not read`,
        rel === "" ? "call the contract's own operations by their operationId" : "copy the document into the contract's folder and name it by a relative path",
      );
      continue;
    }
    if (target === specAbs) continue;
    if (loadSource === undefined) {
      at([...segs, "url"], `source ${name}: this run cannot load other documents`, "generate with contractgen generate");
      continue;
    }
    try {
      out.set(name, await loadSource(target, name));
    } catch (err) {
      if (!(err instanceof SpecError)) throw err;
      at([...segs, "url"], `source ${name} (${url}) does not load: ${err.issues[0]?.message ?? err.message}`, "make that document valid, or remove the steps that call it");
    }
  }
  for (const name of called) {
    if (!out.has(name) && !list.some((sd) => isObj(sd) && sd["name"] === name))
      at(["sourceDescriptions"], `a step calls $sourceDescriptions.${name}, which is not described here`, `add { name: ${name}, url: ./${name}.yaml, type: openapi } to sourceDescriptions`);
  }
  return out;
}

function readDocument(src: SourceFile, model: ApiModel, others: ReadonlyMap<string, ApiModel>, at: Report): WorkflowPlan[] {
  const doc = src.data;
  if (!isObj(doc) || typeof doc["arazzo"] !== "string" || !/^1\.\d+\.\d+$/.test(doc["arazzo"])) {
    at(["arazzo"], "not an Arazzo 1.x document: `arazzo` must be a version such as 1.0.1", "start the file with `arazzo: 1.0.1`, or rename it if it is not a workflow document");
    return [];
  }
  if (!Array.isArray(doc["workflows"]) || doc["workflows"].length === 0) {
    at(["workflows"], "`workflows` must be a non-empty list", "add at least one workflow, or delete the file");
    return [];
  }
  const ops = new Map(model.operations.map((o) => [o.id, o]));
  const ids = new Set<string>();
  const out: WorkflowPlan[] = [];
  // Each workflow's position, read from the lines when they leave no doubt (block-items.ts), else
  // from the located document, whose building costs more than the rest of this file's loading.
  const starts = blockSequenceItems(src.text, "workflows", doc["workflows"].length);
  doc["workflows"].forEach((wf, w) => {
    const base = ["workflows", w];
    if (!isObj(wf)) return at(base, "a workflow must be an object", "give workflowId, summary and steps");
    const id = wf["workflowId"];
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]+$/.test(id)) return at([...base, "workflowId"], "workflowId must be letters, digits, _ and -", "name the workflow, e.g. workflowId: createThenRead");
    if (ids.has(id)) return at([...base, "workflowId"], `workflowId ${id} is used twice`, "give each workflow its own id");
    ids.add(id);
    const inputs = readInputs(wf["inputs"], [...base, "inputs"], at);
    const steps = readSteps(wf["steps"], [...base, "steps"], ops, others, new Set(inputs.map((i) => i.name)), at);
    const { line, col } = starts?.[w] ?? src.locate(toPointer(base));
    out.push({
      id,
      summary: typeof wf["summary"] === "string" ? wf["summary"] : id,
      source: `${src.displayPath}:${line}:${col}`,
      inputs,
      steps,
      changesData: steps.some((s) => (s.source !== undefined ? s.source.operation.method !== "GET" : ops.get(s.operationId)?.method !== "get")),
    });
  });
  return out;
}

function readInputs(raw: unknown, segs: (string | number)[], at: Report): WorkflowPlan["inputs"] {
  if (raw === undefined) return [];
  if (!isObj(raw) || (raw["type"] !== undefined && raw["type"] !== "object") || (raw["properties"] !== undefined && !isObj(raw["properties"]))) {
    at(segs, "inputs must be a JSON Schema of type object with properties", "write inputs: { type: object, properties: { name: { type: string } }, required: [name] }");
    return [];
  }
  const required = Array.isArray(raw["required"]) ? raw["required"].map(String) : [];
  const props = isObj(raw["properties"]) ? raw["properties"] : {};
  return Object.entries(props).map(([name, schema]) => ({
    name,
    required: required.includes(name),
    ...(isObj(schema) && schema["default"] !== undefined ? { default: schema["default"] } : {}),
    ...(isObj(schema) && schema["x-unique"] === true ? { unique: true } : {}),
  }));
}

/** Checks every runtime expression in `value` (a whole `$…` string or embedded `{$…}`), then returns it. */
function checkValue(value: unknown, segs: (string | number)[], known: { inputs: Set<string>; steps: Set<string> }, at: Report): void {
  const one = (text: string): void => {
    const parsed = parseExpression(text);
    if ("error" in parsed) return at(segs, `${text}: ${parsed.error}`, "write a runtime expression such as $steps.<stepId>.outputs.<name> or $response.body#/data/id");
    if (parsed.source === "inputs" && !known.inputs.has(parsed.name)) at(segs, `${text} names an input the workflow does not declare`, `declare ${parsed.name} under the workflow's inputs.properties`);
    if (parsed.source === "steps" && !known.steps.has(parsed.step))
      at(segs, `${text} refers to step ${parsed.step}, which does not run before this one`, "refer only to earlier steps of the same workflow");
  };
  if (typeof value === "string") {
    if (value.startsWith("$")) one(value);
    else for (const e of embedded(value)) one(e.raw.slice(1, -1));
  } else if (Array.isArray(value)) value.forEach((v, i) => checkValue(v, [...segs, i], known, at));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) checkValue(v, [...segs, k], known, at);
}

function readSteps(raw: unknown, segs: (string | number)[], ops: Map<string, ApiModel["operations"][number]>, others: ReadonlyMap<string, ApiModel>, inputs: Set<string>, at: Report): WorkflowStep[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    at(segs, "a workflow needs a non-empty list of steps", "add steps, each with stepId and operationId");
    return [];
  }
  const done = new Set<string>();
  const out: WorkflowStep[] = [];
  raw.forEach((step, i) => {
    const here = [...segs, i];
    if (!isObj(step)) return at(here, "a step must be an object", "give stepId and operationId");
    const id = step["stepId"];
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]+$/.test(id)) return at([...here, "stepId"], "stepId must be letters, digits, _ and -", "name the step, e.g. stepId: create");
    if (done.has(id)) return at([...here, "stepId"], `stepId ${id} is used twice in this workflow`, "give each step its own id");
    for (const key of UNSUPPORTED_STEP) {
      if (step[key] !== undefined)
        at(
          [...here, key],
          `${key} is not supported by contractgen test: steps run in order, each must succeed`,
          `remove ${key}; name the operation with operationId and put each alternative in a workflow of its own`,
        );
    }
    const opId = step["operationId"];
    let source: WorkflowStep["source"];
    const called = sourced(opId);
    let op = typeof opId === "string" && called === undefined ? ops.get(opId) : undefined;
    if (called !== undefined) {
      const { name, id } = called;
      const other = others.get(name);
      // An unknown source was reported with the source descriptions.
      if (other === undefined) return;
      op = other.operations.find((o) => o.id === id);
      if (!op)
        return at(
          [...here, "operationId"],
          `${String(opId)}: ${name} has no operation ${JSON.stringify(id)}`,
          `use an operationId of ${name}, e.g. $sourceDescriptions.${name}.${other.operations[0]?.id ?? "…"}`,
        );
      source = { name, operation: foreignOperation(other, op) };
    }
    if (!op) {
      const names = [...ops.keys()].filter((k) => typeof opId === "string" && k.toLowerCase().includes(opId.toLowerCase().slice(0, 6))).slice(0, 3);
      at(
        [...here, "operationId"],
        `operationId ${JSON.stringify(opId)} is not an operation of the contract`,
        names.length > 0 ? `did you mean ${names.join(", ")}?` : "use an operationId of the contract",
      );
      return;
    }
    const known = { inputs, steps: done };
    const parameters: { name: string; value: unknown }[] = [];
    const params = Array.isArray(step["parameters"]) ? step["parameters"] : step["parameters"] === undefined ? [] : undefined;
    if (params === undefined) at([...here, "parameters"], "parameters must be a list", "write parameters: [{ name: …, in: query, value: … }]");
    (params ?? []).forEach((p, j) => {
      const ps = [...here, "parameters", j];
      if (!isObj(p) || typeof p["name"] !== "string" || !("value" in p)) return at(ps, "a parameter needs name and value", "write { name: …, in: query, value: … }");
      const declared = op.parameters.find((d) => d.name === p["name"] && (p["in"] === undefined || d.in === p["in"]));
      if (!declared)
        return at(
          [...ps, "name"],
          `${op.id} has no ${typeof p["in"] === "string" ? `${p["in"]} ` : ""}parameter ${p["name"]}`,
          `use one of: ${op.parameters.map((d) => `${d.name} (${d.in})`).join(", ") || "(it takes none)"}`,
        );
      checkValue(p["value"], [...ps, "value"], known, at);
      parameters.push({ name: p["name"], value: p["value"] });
    });
    let body: WorkflowStep["body"];
    const rb = step["requestBody"];
    if (rb !== undefined) {
      if (!isObj(rb) || !("payload" in rb)) at([...here, "requestBody"], "requestBody needs a payload", "write requestBody: { payload: { … } }");
      else if (op.requestBody === undefined) at([...here, "requestBody"], `${op.id} takes no request body`, "remove requestBody");
      else {
        checkValue(rb["payload"], [...here, "requestBody", "payload"], known, at);
        const replacements = Array.isArray(rb["replacements"]) ? rb["replacements"].filter(isObj).map((r) => ({ target: String(r["target"]), value: r["value"] })) : undefined;
        replacements?.forEach((r, k) => checkValue(r.value, [...here, "requestBody", "replacements", k, "value"], known, at));
        body = { payload: rb["payload"], ...(replacements ? { replacements } : {}) };
      }
    }
    const successCriteria: WorkflowStep["successCriteria"][number][] = [];
    (Array.isArray(step["successCriteria"]) ? step["successCriteria"] : []).forEach((c, k) => {
      const cs = [...here, "successCriteria", k];
      if (!isObj(c) || typeof c["condition"] !== "string") return at(cs, "a criterion needs a condition", "write { condition: $statusCode == 200 }");
      const type = c["type"] === undefined ? "simple" : c["type"];
      if (type !== "simple" && type !== "regex" && type !== "jsonpath")
        return at(
          [...cs, "type"],
          `criterion type ${JSON.stringify(type)} is not supported by contractgen test`,
          "use a simple condition ($response.body#/data/id != null), type: regex or type: jsonpath with a context",
        );
      if (type === "jsonpath") {
        for (const e of embedded(c["condition"])) checkValue(e.raw.slice(1, -1), [...cs, "condition"], known, at);
        if (c["context"] !== undefined) checkValue(c["context"], [...cs, "context"], known, at);
        try {
          // Embedded {$…} values are filled at run time; a placeholder stands in for them here.
          parseJsonPath(c["condition"].replace(/\{\$[^{}]+\}/g, "x"));
        } catch (err) {
          if (!(err instanceof JsonPathSyntaxError)) throw err;
          return at([...cs, "condition"], `the JSONPath query does not parse at character ${err.at + 1}: ${err.message}`, "write e.g. $.data[?@.id == 'x'] or $[?count($.data[?@.id == 'x']) == 0]");
        }
        successCriteria.push({ condition: c["condition"], type, ...(typeof c["context"] === "string" ? { context: c["context"] } : {}) });
        return;
      }
      if (type === "regex") {
        try {
          new RegExp(c["condition"], "u");
        } catch (err) {
          return at([...cs, "condition"], `not a regular expression: ${(err as Error).message}`, "correct the pattern");
        }
        if (c["context"] !== undefined) checkValue(c["context"], [...cs, "context"], known, at);
        successCriteria.push({ condition: c["condition"], type, ...(typeof c["context"] === "string" ? { context: c["context"] } : {}) });
        return;
      }
      let tree;
      try {
        tree = parseCondition(c["condition"]);
      } catch (err) {
        if (!(err instanceof ConditionSyntaxError)) throw err;
        return at([...cs, "condition"], `the condition does not parse at character ${err.at + 1}: ${err.message}`, "write e.g. $statusCode == 200 && $response.body#/data/deleted == true");
      }
      for (const e of expressionsIn(tree)) checkValue(e, [...cs, "condition"], known, at);
      successCriteria.push({ condition: c["condition"], type: "simple" });
    });
    const outputs: Record<string, string> = {};
    if (isObj(step["outputs"])) {
      for (const [name, expr] of Object.entries(step["outputs"])) {
        if (typeof expr !== "string") {
          at([...here, "outputs", name], "an output is a runtime expression", "write e.g. id: $response.body#/data/id");
          continue;
        }
        checkValue(expr, [...here, "outputs", name], known, at);
        outputs[name] = expr;
      }
    }
    const preconditions: string[] = [];
    const pre = step["x-preconditions"];
    if (pre !== undefined && (!Array.isArray(pre) || !pre.every((x) => typeof x === "string")))
      at([...here, "x-preconditions"], "x-preconditions is a list of simple conditions", "write x-preconditions: ['$response.body#/next_cursor == null']");
    else
      (pre ?? []).forEach((text: string, k: number) => {
        try {
          for (const e of expressionsIn(parseCondition(text))) checkValue(e, [...here, "x-preconditions", k], known, at);
          preconditions.push(text);
        } catch (err) {
          if (!(err instanceof ConditionSyntaxError)) throw err;
          at([...here, "x-preconditions", k], `the condition does not parse at character ${err.at + 1}: ${err.message}`, "write e.g. $response.body#/next_cursor == null");
        }
      });
    const credentials = step["x-credentials"];
    if (credentials !== undefined && credentials !== "none")
      at([...here, "x-credentials"], "x-credentials takes only `none` (send the step without credentials)", "remove it, or write x-credentials: none");
    done.add(id);
    out.push({
      id,
      operationId: op.id,
      ...(source !== undefined ? { source } : {}),
      ...(typeof step["description"] === "string" ? { description: step["description"] } : {}),
      parameters,
      ...(body ? { body } : {}),
      successCriteria,
      outputs,
      ...(preconditions.length > 0 ? { preconditions } : {}),
      ...(credentials === "none" ? { credentials: "none" as const } : {}),
    });
  });
  return out;
}
