/**
 * What passes between the browser test (Node) and its page: the page runs the generated client and
 * reports each outcome as plain data, which is all that crosses into Node.
 */

/** The pet shelter's operations (test/mock/fixtures/pets.openapi.yaml). */
export type Operation = "listPets" | "createPet" | "getPet" | "updatePet" | "deletePet";

/** One call of the generated client: the value it returned, or the error it threw. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: string;
      readonly status?: number;
      /** The error's JSON form (an RFC 9457 problem's members for a Problem). */
      readonly problem?: unknown;
    };

/** What the page puts on `globalThis.petsPage`. */
export interface PetsPage {
  /** Settles once msw's worker has started; `controlled`: a Service Worker controls the page. */
  readonly ready: Promise<{ readonly controlled: boolean }>;
  /** `client[operation](args)`: the typed call, throwing the contract's errors. */
  call(operation: Operation, args: unknown): Promise<Outcome>;
  /** `client.raw[operation](args)`: status and body, whatever the status. */
  raw(operation: Operation, args: unknown): Promise<Outcome>;
  /** Each request msw answered from a handler, as `METHOD /path status`, in order. */
  answered(): readonly string[];
}

/** The page's bridge, found on the page's global object. */
export const PAGE_GLOBAL = "petsPage";
