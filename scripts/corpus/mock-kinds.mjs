// The kinds of failure `npm run corpus:mock` meets: each with whether the document itself makes it
// unavoidable (no server, mock or real, can pass it) and why. A failure is of the first kind whose
// test matches its case name or message; one matching none is "other" (the mock's to fix).

/** @type {Record<string, { unavoidable: boolean; title: string; why: string; test?: (c: { name: string; message?: string }) => boolean }>} */
export const KINDS = {
  "no-declared-refusal": {
    unavoidable: true,
    title: "the operation declares no refusal",
    why: "The operation declares no 4xx, 4XX or default answer, so any refusal of an invalid request is an answer the contract does not declare; the suite reports the missing declaration once per operation.",
    test: (c) => /declares how it refuses invalid requests/.test(c.name),
  },
  "invalid-example": {
    unavoidable: true,
    title: "the contract's own example does not validate",
    why: "An example in the document breaks its own schema; the suite checks the document's examples before any request.",
    test: (c) => /example \d+ of .* validates/.test(c.name),
  },
  "unsatisfiable-schema": {
    unavoidable: true,
    title: "no value satisfies the declared answer",
    why: "The answer's schema admits no value the generator can draw and the document gives no example that validates (contradictory constraints, a required member whose schema is false).",
    test: (c) => /found no value that validates/.test(c.message ?? ""),
  },
  other: { unavoidable: false, title: "other", why: "Not classified yet: the mock's, or the suite's, to look at." },
};

export function kindOf(c) {
  for (const [id, kind] of Object.entries(KINDS)) if (kind.test?.(c)) return id;
  return "other";
}
