/**
 * The package the browser test generates from test/mock/fixtures/pets.openapi.yaml, as page.ts
 * imports it: esbuild maps `pets-under-test/*` to the generated sources, which do not exist when
 * the repository is type-checked. Only the part of the API the page uses is declared.
 */
declare module "pets-under-test/client" {
  type Operation = "listPets" | "createPet" | "getPet" | "updatePet" | "deletePet";
  type Call = (args?: unknown) => Promise<unknown>;
  type RawCall = (args?: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;
  export type PetsOpenapiClient = { readonly [K in Operation]: Call } & { readonly raw: { readonly [K in Operation]: RawCall } };
  export function createPetsOpenapiClient(options: { baseUrl: string; timeoutMs?: number }): PetsOpenapiClient;
}

declare module "pets-under-test/msw" {
  export function petsOpenapiMswHandlers<H>(http: import("@contractgen/runtime/msw").MswHttp<H>, options?: { baseUrl?: string; seed?: number }): H[];
}
