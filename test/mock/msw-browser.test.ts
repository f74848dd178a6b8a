/**
 * The generated `./msw` entry in a real browser: a package generated from a contract nobody wrote
 * handlers for, its MSW handlers installed with msw/browser's `setupWorker` in headless Chromium,
 * its own generated client calling them from the page. What the Node test (msw.test.ts) shows
 * with msw/node holds in the browser too: state, validation by the package's validators, Prefer.
 *
 * Skipped where no Chromium is installed; `npm run test:browser` runs this file alone and fails
 * there instead (CONTRACTGEN_REQUIRE_CHROMIUM=1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "./browser/chromium.js";
import { openPetsPage, type OpenPage } from "./browser/pets-page.js";

const chromium = findChromium();
const required = process.env["CONTRACTGEN_REQUIRE_CHROMIUM"] === "1";

if ("missing" in chromium && !required) {
  // The skip's reason, where the default reporter shows it (it prints no skipped suite's name).
  console.warn(`msw-browser.test.ts skipped: ${chromium.missing}`);
}

if ("missing" in chromium && required) {
  describe("generated ./msw handlers in Chromium", () => {
    it("needs a Chromium executable", () => {
      throw new Error(chromium.missing);
    });
  });
}

const title = "missing" in chromium ? `generated ./msw handlers in Chromium (skipped: ${chromium.missing})` : "generated ./msw handlers, called by the generated client in Chromium";

describe.skipIf("missing" in chromium)(title, () => {
  let page: OpenPage | undefined;
  const open = (): OpenPage => {
    if (page === undefined) throw new Error("the page did not open");
    return page;
  };

  beforeAll(async () => {
    if ("path" in chromium) page = await openPetsPage(chromium.path);
  }, 60_000);

  afterAll(async () => {
    await page?.close();
  }, 30_000);

  it("starts msw's worker as a Service Worker that controls the page", () => {
    expect(open().controlled).toBe(true);
  });

  it("keeps what the client creates: read back, then listed", async () => {
    const bella = { name: "bella", species: "cat", age: 1 };
    expect(await open().call("createPet", { body: bella })).toEqual({ ok: true, value: bella });
    expect(await open().call("getPet", { name: "bella" })).toEqual({ ok: true, value: bella });
    expect(await open().call("listPets")).toMatchObject({ ok: true, value: expect.arrayContaining([bella]) });
  });

  it("refuses an invalid request with the contract's 400 problem naming the parameter", async () => {
    expect(await open().call("listPets", { limit: 0 })).toMatchObject({
      ok: false,
      error: "Problem",
      status: 400,
      problem: { status: 400, detail: expect.stringContaining("limit") },
    });
  });

  it("answers the status a Prefer: code=… header chooses, over the state it keeps", async () => {
    expect(await open().call("createPet", { body: { name: "milo", species: "dog" } })).toMatchObject({ ok: true });
    expect(await open().raw("getPet", { name: "milo" })).toMatchObject({ ok: true, value: { status: 200, body: { name: "milo" } } });
    expect(await open().raw("getPet", { name: "milo", headers: { prefer: "code=404" } })).toMatchObject({ ok: true, value: { status: 404, body: { status: 404 } } });
  });

  it("answers from the handlers in the worker: msw reports each response as mocked", async () => {
    const before = (await open().answered()).length;
    await open().call("createPet", { body: { name: "rex", species: "dog" } });
    await open().call("getPet", { name: "nobody" });
    expect((await open().answered()).slice(before)).toEqual(["POST /v1/pets 201", "GET /v1/pets/nobody 404"]);
  });
});
