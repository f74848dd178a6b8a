/**
 * The browser test's page: the generated package's MSW handlers installed with msw/browser's
 * `setupWorker` (a Service Worker), and the generated client calling them. The test drives the
 * client through `globalThis.petsPage` and asserts on the outcomes reported back.
 */
import { http } from "msw";
import { setupWorker } from "msw/browser";
import { createPetsOpenapiClient } from "pets-under-test/client";
import { petsOpenapiMswHandlers } from "pets-under-test/msw";
import { PAGE_GLOBAL, type Operation, type Outcome, type PetsPage } from "./bridge.js";

/**
 * The one browser global the page reads, declared here: the repository's type-check has Node's
 * globals, and the DOM library would leak into every test.
 */
declare const navigator: { readonly serviceWorker: { readonly controller: object | null } };

/** No such host exists: a request the worker does not answer fails rather than reaching a server. */
const BASE = "http://pets.test/v1";

const worker = setupWorker(...petsOpenapiMswHandlers(http, { baseUrl: BASE, seed: 3 }));
const answered: string[] = [];
worker.events.on("response:mocked", ({ request, response }) => {
  answered.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
});

// A bounded client: a call the worker never answers fails within the test's wait.
const client = createPetsOpenapiClient({ baseUrl: BASE, timeoutMs: 5_000 });

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const e = error as { name?: unknown; status?: unknown; toJSON?: () => unknown };
    return {
      ok: false,
      error: typeof e.name === "string" ? e.name : String(error),
      ...(typeof e.status === "number" ? { status: e.status } : {}),
      ...(typeof e.toJSON === "function" ? { problem: e.toJSON() } : {}),
    };
  }
}

const page: PetsPage = {
  ready: worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error", quiet: true }).then(() => ({ controlled: navigator.serviceWorker.controller !== null })),
  call: (operation: Operation, args: unknown) => outcome(() => client[operation](args)),
  raw: (operation: Operation, args: unknown) =>
    outcome(async () => {
      const { status, body } = await client.raw[operation](args);
      return { status, body };
    }),
  answered: () => [...answered],
};
Object.assign(globalThis, { [PAGE_GLOBAL]: page });
