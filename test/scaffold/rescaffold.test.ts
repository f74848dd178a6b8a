/**
 * Re-scaffolding after the contract changed: ts-morph adds what is new and marks what left, and
 * every byte the user wrote stays where it was. One kind of change per assertion block; the
 * fixture pets-v2.yaml lists them.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTree } from "../generator/helpers.js";
import { PETS_V1, PETS_V2, changeSpec, keepsEveryLine, linkContract, petsWorkspace, scaffold, tsc } from "./support.js";

const STUB = "    return notImplemented(input);\n";

/** The user's work on the v1 project: an import, a helper, a comment, two implemented handlers. */
function implement(server: string): Record<string, string> {
  const pets = path.join(server, "src/handlers/pets.ts");
  let text = readFileSync(pets, "utf8");
  text = text.replace(
    'import { notImplemented } from "@contractgen/runtime/server";\n',
    'import { notImplemented } from "@contractgen/runtime/server";\nimport { randomUUID } from "node:crypto";\n\n// Kept in memory until the database exists.\nconst pets = new Map<string, { id: string; name: string }>();\n',
  );
  const listStub = text.indexOf(STUB, text.indexOf("async listPets("));
  text = `${text.slice(0, listStub)}    // Newest first, as the product team asked.\n    return { status: 200, body: [...pets.values()].reverse().slice(0, input.query.limit ?? 100) };\n${text.slice(listStub + STUB.length)}`;
  const createStub = text.indexOf(STUB, text.indexOf("async createPet("));
  text = `${text.slice(0, createStub)}    const pet = { id: randomUUID(), name: input.body.name };\n    pets.set(pet.id, pet);\n    return { status: 201, body: pet };\n${text.slice(createStub + STUB.length)}`;
  writeFileSync(pets, text);
  const stores = path.join(server, "src/handlers/stores.ts");
  writeFileSync(stores, `${readFileSync(stores, "utf8")}\n/** Not a handler: a helper the user exports from a handler module. */\nexport const storeHours = { open: 9, close: 17 };\n`);
  return snapshotTree(path.join(server, "src"));
}

describe("contractgen scaffold: regenerating after the contract changed", () => {
  const ws = petsWorkspace();
  let before: Record<string, string>;
  let after: Record<string, string>;
  let stdout = "";

  beforeAll(async () => {
    expect((await scaffold(ws)).code).toBe(0);
    before = implement(ws.server);
    changeSpec(ws, PETS_V2);
    const r = await scaffold(ws);
    expect(r.code, r.stderr).toBe(0);
    stdout = r.stdout;
    after = snapshotTree(path.join(ws.server, "src"));
  });

  it("keeps every line the user wrote, in order, in every file", () => {
    for (const [file, text] of Object.entries(before)) {
      expect(after[file], file).toBeDefined();
      expect(keepsEveryLine(text, after[file] as string), file).toBe(true);
    }
    // The implemented bodies are there byte for byte.
    expect(after["handlers/pets.ts"]).toContain(
      "    // Newest first, as the product team asked.\n    return { status: 200, body: [...pets.values()].reverse().slice(0, input.query.limit ?? 100) };\n",
    );
    expect(after["handlers/stores.ts"]).toContain("export const storeHours = { open: 9, close: 17 };");
  });

  it("adds a handler for an operation added to an existing tag", () => {
    expect(after["handlers/pets.ts"]).toMatch(/async deletePet\(input: api\.DeletePetInput\): Promise<api\.DeletePetReply> \{\n\s+return notImplemented\(input\);/);
    expect(stdout).toContain("added    src/handlers/pets.ts  deletePet");
  });

  it("adds a module for a new tag and spreads it into the handlers", () => {
    expect(after["handlers/orders.ts"]).toContain("async placeOrder(input: api.PlaceOrderInput)");
    expect(after["handlers/index.ts"]).toContain('import { ordersHandlers } from "./orders.js";');
    expect(after["handlers/index.ts"]).toContain("...ordersHandlers");
  });

  it("marks a removed operation's handler @deprecated with the reason instead of deleting it", () => {
    expect(after["handlers/stores.ts"]).toMatch(
      /\/\*\* @deprecated contractgen: operation "getStore" is no longer in the contract; delete this handler when nothing needs it\. \*\/\n  async getStore\(/,
    );
  });

  it("treats a renamed operation as the old handler stale and a new one added", () => {
    expect(after["handlers/pets.ts"]).toContain('@deprecated contractgen: operation "getPet"');
    expect(after["handlers/pets.ts"]).toContain("async showPetById(input: api.ShowPetByIdInput)");
  });

  it("keeps the handler of an operation that moved to another tag where the user has it", () => {
    expect(after["handlers/catalog.ts"]).toBeUndefined();
    expect(after["handlers/pets.ts"]?.match(/async listPets\(/g)).toHaveLength(1);
    expect(stdout).toContain("listPets is tagged for src/handlers/catalog.ts; kept where it is");
  });

  it("leaves the body that uses a renamed parameter as written, so the compiler points at it", () => {
    linkContract(ws.server);
    expect(tsc(path.join(ws.server, "contract/tsconfig.json")).output).toBe("");
    const { ok, output } = tsc(path.join(ws.server, "tsconfig.json"), false);
    expect(ok).toBe(false);
    // The body reads input.query.limit; the contract now calls it max.
    expect(output).toMatch(/src\/handlers\/pets\.ts\(\d+,\d+\): error TS2339: Property 'limit' does not exist/);
    // The stale handlers fail the handlers interface: the compiler lists what to delete.
    expect(output).toMatch(/src\/handlers\/stores\.ts\(\d+,\d+\): error TS\d+: .*getStore/);
    // The new code scaffold wrote compiles.
    expect(output).not.toMatch(/orders\.ts|index\.ts/);
  });

  it("changes nothing when run again", async () => {
    const r = await scaffold(ws);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("server: unchanged");
    expect(snapshotTree(path.join(ws.server, "src"))).toEqual(after);
  });

  it("shows what is stale in the README's status section", () => {
    const readme = readFileSync(path.join(ws.server, "README.md"), "utf8");
    expect(readme).toMatch(/\| getStore +\| not in the contract +\| src\/handlers\/stores\.ts +\| stale +\|/);
    expect(readme).toMatch(/\| listPets +\| GET \/pets +\| src\/handlers\/pets\.ts +\| implemented +\|/);
    expect(readme).toContain("2 implemented, 4 to do (answer 501), 0 missing, 2 stale");
  });

  it("--check exits 1 and lists stale handlers; writes nothing", async () => {
    const r = await scaffold(ws, "--check");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("stale    src/handlers/pets.ts  getPet");
    expect(r.stdout).toContain("stale    src/handlers/stores.ts  getStore");
    expect(snapshotTree(path.join(ws.server, "src"))).toEqual(after);
  });

  it("removes its own marker, and nothing else, when an operation comes back", async () => {
    changeSpec(ws, PETS_V1);
    expect((await scaffold(ws)).code).toBe(0);
    const back = snapshotTree(path.join(ws.server, "src"));
    expect(back["handlers/stores.ts"]).toBe(before["handlers/stores.ts"]);
    expect(back["handlers/pets.ts"]).not.toContain('operation "getPet"');
    expect(back["handlers/pets.ts"]).toContain('operation "showPetById"');
    expect(keepsEveryLine(before["handlers/pets.ts"] as string, back["handlers/pets.ts"] as string)).toBe(true);
  });
});

describe("contractgen scaffold --check", () => {
  it("exits 1 listing missing handlers and a changed contract, and 0 once scaffold ran", async () => {
    const ws = petsWorkspace();
    expect((await scaffold(ws)).code).toBe(0);
    expect((await scaffold(ws, "--check")).code).toBe(0);
    changeSpec(ws, PETS_V2);
    const r = await scaffold(ws, "--check");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("missing  src/handlers/orders.ts  placeOrder (placeOrder)");
    expect(r.stdout).toContain("missing  src/handlers/pets.ts  deletePet (deletePet)");
    expect(r.stdout).toMatch(/changed  contract\//);
  });
});

describe("contractgen scaffold refuses a file it cannot parse", () => {
  it("names the file, line and reason, and writes nothing anywhere", async () => {
    const ws = petsWorkspace();
    expect((await scaffold(ws)).code).toBe(0);
    const pets = path.join(ws.server, "src/handlers/pets.ts");
    writeFileSync(pets, readFileSync(pets, "utf8").replace("async createPet(", "async createPet(((("));
    const snapshot = snapshotTree(ws.server);
    changeSpec(ws, PETS_V2);
    const r = await scaffold(ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^src\/handlers\/pets\.ts:17:19\n {2}error: does not parse: Parameter declaration expected\. \(\d+ more syntax error\(s\) after it\)/m);
    expect(r.stderr).toContain("nothing was written");
    // The contract package is not regenerated either: the project stays as it was.
    expect(snapshotTree(ws.server)).toEqual(snapshot);
  });

  it("refuses when the handler object scaffold adds to is gone", async () => {
    const ws = petsWorkspace();
    expect((await scaffold(ws)).code).toBe(0);
    const pets = path.join(ws.server, "src/handlers/pets.ts");
    writeFileSync(pets, readFileSync(pets, "utf8").replace("export const petsHandlers", "export const renamedObject"));
    changeSpec(ws, PETS_V2);
    const r = await scaffold(ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("src/handlers/pets.ts:1:1\n  error: has no `export const petsHandlers = { … }` object");
  });
});

describe("contractgen scaffold repairs only what is missing", () => {
  it("recreates a deleted handler index with every module, and keeps a note the user put under a marker", async () => {
    const ws = petsWorkspace();
    expect((await scaffold(ws)).code).toBe(0);
    const indexPath = path.join(ws.server, "src/handlers/index.ts");
    const index = readFileSync(indexPath, "utf8");
    rmSync(indexPath);
    expect((await scaffold(ws)).code).toBe(0);
    expect(readFileSync(indexPath, "utf8")).toBe(index);

    changeSpec(ws, PETS_V2);
    expect((await scaffold(ws)).code).toBe(0);
    const stores = path.join(ws.server, "src/handlers/stores.ts");
    const marked = readFileSync(stores, "utf8");
    writeFileSync(stores, marked.replace("\n  async getStore(", "\n  // Kept for the old mobile app.\n  async getStore("));
    changeSpec(ws, PETS_V1);
    expect((await scaffold(ws)).code).toBe(0);
    const back = readFileSync(stores, "utf8");
    expect(back).not.toContain("@deprecated contractgen");
    expect(back).toContain("  /** GET /stores/{storeId} */\n  // Kept for the old mobile app.\n  async getStore(");
  });
});
