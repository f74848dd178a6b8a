/**
 * The generated README's quick start: install, create the client (its real factory name),
 * authenticate with what the chosen operation accepts, make one call, handle a problem; then the
 * server, the mocks and the MCP tools, each when the package has them. The code is built with the
 * `ts` template (spec text escaped there) and compiles against the package as written
 * (test/generator/readme-quick-start.test.ts compiles every block).
 */
import type { ApiModel, JsonSchema, Operation, Parameter, SchemeKind } from "../model/ir.js";
import { pascalCase } from "../model/naming.js";
import { supportedAlternatives } from "../model/security.js";
import { RESERVED_ARGUMENTS } from "@contractgen/runtime/client";
import { Md, mdCode } from "./markdown.js";
import { serverNames } from "./server.js";
import { ident, literal, stringLiteral, ts, typeKey, type Code } from "./ts.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** A fenced block that no backtick run inside can close. */
function fenced(lang: string, code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${code.trimEnd()}\n${fence}`;
}

/** The schema a parameter's type comes from, through one `$ref` to a component. */
function resolved(model: ApiModel, schema: JsonSchema): Obj | undefined {
  if (!isObj(schema)) return undefined;
  const ref = schema["$ref"];
  if (typeof ref !== "string") return schema;
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  const target = m ? model.schemas.find((s) => s.name === decodeURIComponent(m[1] as string))?.schema : undefined;
  return isObj(target) ? target : undefined;
}

/** A value of the parameter's type for the example call, or undefined when it is not a scalar or an array of scalars. */
function exampleValue(model: ApiModel, p: Parameter): Code | undefined {
  const s = resolved(model, p.schema);
  if (s !== undefined && s["type"] === "array") {
    const item = exampleValue(model, { ...p, schema: s["items"] as JsonSchema, example: undefined });
    return item === undefined ? undefined : ts`[${item}]`;
  }
  return scalarValue(model, p);
}

function scalarValue(model: ApiModel, p: Parameter): Code | undefined {
  const s = resolved(model, p.schema);
  if (s === undefined) return undefined;
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) {
    const first = s["enum"][0];
    return typeof first === "string" || typeof first === "number" || typeof first === "boolean" ? literal(first) : undefined;
  }
  const type = s["type"];
  const fits = (v: unknown): boolean =>
    type === "string" ? typeof v === "string" : type === "integer" || type === "number" ? typeof v === "number" : type === "boolean" ? typeof v === "boolean" : false;
  if (p.example !== undefined && fits(p.example)) return literal(p.example as string | number | boolean);
  if (type === "string") return literal("…");
  if (type === "integer" || type === "number") return literal(1);
  if (type === "boolean") return literal(true);
  return undefined;
}

interface Call {
  readonly op: Operation;
  readonly args: readonly (readonly [string, Code])[];
  readonly auth: readonly SchemeKind[] | undefined;
}

/**
 * The operation the quick start calls: a GET (else any method) with no required body, whose
 * required parameters are plain scalars and whose security the client can meet; one whose shape
 * the document shows before one it leaves unspecified, then the fewest required arguments, then
 * contract order.
 */
function chooseCall(model: ApiModel): Call | undefined {
  const candidates: (Call & { readonly rank: number })[] = [];
  model.operations.forEach((op, i) => {
    if (op.requestBody?.required) return;
    const alternatives = supportedAlternatives(model, op);
    if (op.security.length > 0 && alternatives.length === 0) return;
    const args: (readonly [string, Code])[] = [];
    for (const p of op.parameters.filter((x) => x.required)) {
      const value = exampleValue(model, p);
      // A renamed argument (a clash with the client's own names) is left to the reference.
      if (value === undefined || RESERVED_ARGUMENTS.has(p.name) || op.parameters.filter((x) => x.name === p.name).length > 1) return;
      args.push([p.name, value]);
    }
    const auth = op.security.length === 0 ? undefined : (alternatives.find((a) => a.length === 1) ?? alternatives[0]);
    candidates.push({ op, args, auth, rank: (op.unspecified !== undefined ? 10_000_000 : 0) + (op.method === "get" ? 0 : 1_000_000) + args.length * 10_000 + i });
  });
  candidates.sort((a, b) => a.rank - b.rank);
  return candidates[0];
}

/** The client option that authenticates one scheme kind, with placeholders for the secrets. */
function authOption(kind: SchemeKind): Code {
  switch (kind) {
    case "basic":
      return ts`{ basic: { username: "YOUR_USERNAME", password: "YOUR_PASSWORD" } }`;
    case "oauth1":
      return ts`{
    oauth1: { consumerKey: "YOUR_KEY", consumerSecret: "YOUR_SECRET", token: "YOUR_TOKEN", tokenSecret: "YOUR_TOKEN_SECRET" },
  }`;
    case "appOnly":
      // The client fetches and caches the app-only token from the key and secret.
      return ts`{ clientCredentials: { apiKey: "YOUR_KEY", apiSecret: "YOUR_SECRET" } }`;
    default:
      return ts`{ bearer: "YOUR_TOKEN" }`;
  }
}

/** The README's quick start and the sections after it, as Markdown (empty for a package without a client). */
export function quickStart(model: ApiModel, packageName: string, exports: ReadonlyMap<string, string>): Md {
  const modules = new Set(exports.values());
  if (!modules.has("client")) return new Md("");
  const base = pascalCase(model.name, "Api");
  const factory = `create${base}Client`;
  const hasServer = model.servers.length > 0;
  const call = chooseCall(model);
  const out: string[] = ["## Quick start", ""];
  out.push("```sh", `npm install ${packageName}`, "```", "");
  const clientModule = stringLiteral(`${packageName}/client`);
  const problemsModule = stringLiteral(`${packageName}/problems`);
  const options: Code[] = [];
  if (!hasServer) options.push(ts`  baseUrl: "https://api.example.com", // the contract names no server\n`);
  if (call?.auth?.[0] !== undefined) options.push(ts`  auth: ${authOption(call.auth[0])},\n`);
  const argList = call === undefined ? ts`` : call.args.length === 0 ? ts`` : ts`{ ${call.args.map(([k, v]) => ts`${typeKey(k)}: ${v}`).reduce((a, b) => ts`${a}, ${b}`)} }`;
  const invocation =
    call === undefined
      ? ts`// one method per operation: see the table below`
      : ts`const result = await client.${ident(call.op.methodName)}(${argList});
  console.log(result);`;
  const code = ts`import { ${ident(factory)} } from ${clientModule};
import { Problem } from ${problemsModule};

const client = ${ident(factory)}({${options.length > 0 ? ts`\n${options.reduce((a, b) => ts`${a}${b}`)}` : ts``}});

try {
  ${invocation}
} catch (error) {
  // Error answers the contract describes as problems (RFC 9457) are Problem subclasses.
  if (error instanceof Problem) console.error(error.status, error.type, error.title, error.detail);
  else throw error;
}
`;
  out.push(
    `Create the client with \`${factory}\`${hasServer ? " (it calls the contract's first server unless you pass `baseUrl`)" : ""}, give it the credentials the operations accept, and call a method per operation${call ? ` (here ${mdCode(call.op.methodName)}, ${call.op.method.toUpperCase()} ${mdCode(call.op.path)})` : ""}:`,
    "",
    fenced("ts", code.text),
    "",
    "Each method resolves to the success body typed from the contract and throws the contract's error class otherwise; `client.raw.<method>` gives the status, headers and body instead.",
  );
  if (modules.has("server")) {
    const { pluginName, handlersName } = serverNames(model);
    out.push("", "## Server", "");
    out.push("A Fastify 5 plugin validates requests and replies as the contract says; operations without a handler answer 501. `contractgen scaffold` makes a whole project of it.", "");
    out.push(
      fenced(
        "ts",
        ts`import Fastify from "fastify";
import { ${ident(pluginName)}, type ${ident(handlersName)} } from ${stringLiteral(`${packageName}/server`)};

const handlers: Partial<${ident(handlersName)}> = {};
const app = Fastify();
await app.register(${ident(pluginName)}, { handlers });
await app.listen({ port: 3000 });
`.text,
      ),
    );
  }
  if (modules.has("mocks") && call !== undefined) {
    out.push("", "## Mocks", "");
    out.push("Seeded data for every schema and an example response per operation, valid against the contract:", "");
    out.push(
      fenced(
        "ts",
        ts`import { exampleResponse } from ${stringLiteral(`${packageName}/mocks`)};

const example = exampleResponse(${stringLiteral(call.op.id)});
console.log(example.status, example.body);
`.text,
      ),
    );
  }
  if (modules.has("mcp")) {
    out.push("", "## MCP", "");
    out.push("Every operation as a tool for AI assistants, over stdio or Streamable HTTP:", "");
    out.push(fenced("sh", `npx contractgen mcp --spec <this package's folder> --base-url https://api.example.com`));
  }
  return new Md(out.join("\n"));
}
