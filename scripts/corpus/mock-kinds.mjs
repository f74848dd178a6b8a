// The kinds of failure `npm run mock:consistency` meets. Each kind says whose it is:
//   document — the document itself makes it unavoidable (no server, mock or real, can pass it);
//   suite    — `contractgen test` (or Node's fetch under it) cannot send the request it means to;
//   rules    — the contract states behaviour in extensions or Arazzo workflows (x-response-rules,
//              x-conditional, x-field-selection, token lifecycles) that a generic mock does not run;
//   validators — the package's generated validators decide it (the mock serves what they judge);
//   mock     — the generic mock's own to fix.
// A failure is of the first kind whose test matches its case name or message; one matching none
// is "other" (counted as the mock's).

/** @type {Record<string, { side: "document" | "suite" | "rules" | "validators" | "mock"; title: string; why: string; test?: (c: { name: string; message?: string }) => boolean }>} */
export const KINDS = {
  "no-declared-refusal": {
    side: "document",
    title: "the operation declares no refusal",
    why: "The operation declares no 4xx, 4XX or default answer, so any refusal of an invalid request is an answer the contract does not declare; the suite reports the missing declaration once per operation.",
    test: (c) => /declares how it refuses invalid requests/.test(c.name),
  },
  "invalid-example": {
    side: "document",
    title: "the contract's own example does not validate",
    why: "An example in the document breaks its own schema; the suite checks the document's examples before any request.",
    test: (c) => /example \d+ of .* validates/.test(c.name),
  },
  "unsatisfiable-schema": {
    side: "document",
    title: "no value satisfies the declared answer",
    why: "The answer's schema admits no value the generator can draw and the document gives no example that validates (contradictory constraints, a required member whose schema is false).",
    test: (c) => /found no value that validates/.test(c.message ?? ""),
  },
  "no-operations": {
    side: "document",
    title: "nothing to test",
    why: "The document declares webhooks only: the suite has no operation to call.",
    test: (c) => /No test found in suite/.test(c.message ?? ""),
  },
  "get-with-body": {
    side: "suite",
    title: "a GET with a request body",
    why: "The document gives a GET a request body; Node's fetch refuses to send one, so the request never leaves the client.",
    test: (c) => /^GET \S+ failed$/.test((c.message ?? "").split("\n")[0] ?? ""),
  },
  "empty-path-parameter": {
    side: "suite",
    title: "an empty path parameter",
    why: "The suite tries a path parameter one character under a minimum length of 1; the client refuses to build a URL with an empty segment.",
    test: (c) => /Path parameter \S+ may not be ""/.test(c.message ?? ""),
  },
  "suite-credentials": {
    side: "suite",
    title: "credentials the suite cannot give",
    why: "The operation requires several API keys at once (AND); the suite is given one.",
    test: (c) => /No configured credentials .* satisfy this operation/.test(c.message ?? ""),
  },
  "key-member-sent": {
    side: "suite",
    title: "a key member sent with another value",
    why: "An update's body sends the member that holds the object's key (Azure's `name`) with a value other than the key its path names; the object keeps the key its path names, as the service does, and the suite expects the sent value back.",
    test: (c) => {
      const message = c.message ?? "";
      const m = /with other values than it was sent: [^:\n]+: sent .*?, reads back "([^"\n]*)"/.exec(message);
      if (!m || m[1] === "") return false;
      const key = m[1];
      if (message.includes(`answers the update of ${key} with`)) return true;
      // The key the request's path names: the last segment of the URL the case repeats.
      const url = /curl -i -X \S+ '([^']+)'/.exec(message)?.[1];
      if (url === undefined) return false;
      try {
        return decodeURIComponent(new URL(url).pathname.split("/").at(-1) ?? "") === key;
      } catch {
        return false;
      }
    },
  },
  "unbuildable-request": {
    side: "suite",
    title: "no valid request could be built",
    why: "The suite could draw no request the contract's own validators accept (formats it cannot draw under the constraints given).",
    test: (c) => /no request the contract's own validators accept could be built/.test(c.message ?? ""),
  },
  "stated-rules": {
    side: "rules",
    title: "behaviour stated in contract extensions",
    why: "The contract states relations between request and answer (x-response-rules: an echoed id, end = start + duration, card_uri names the card), conditions between members (x-conditional), field selection (x-field-selection) or token lifecycles; a mock drawing answers from schemas and examples does not compute them.",
    test: (c) =>
      /breaking the contract's response rules|took \S+ where|adds exactly the fields it names|answers the defaults alone|after invalidation a new token/.test(`${c.name}\n${c.message ?? ""}`),
  },
  workflow: {
    side: "rules",
    title: "Arazzo workflow outcomes",
    why: "A workflow's success criteria hold values the service computes (statuses of a batch upsert, one catalog per user); the generic mock keeps objects, not the service's business rules.",
    test: (c) => /> workflows > /.test(c.name),
  },
  "default-fills-required": {
    side: "validators",
    title: "a required query parameter filled in by the server",
    why: "The request lacks a required query parameter and the generated server fills it in: the document gives it a default (the package's validators apply defaults; OpenAPI 2.0 says a default means nothing for a required parameter), or it is an OAuth 1.0a protocol parameter the Authorization header carries. The suite expects a refusal.",
    test: (c) => /accepted a request without its required query parameter/.test(c.message ?? ""),
  },
  "fragment-paths": {
    side: "mock",
    title: "operations told apart by a header (AWS #X-Amz-Target paths)",
    why: "AWS's documents give each operation a path ending in #X-Amz-Target=…: the fragment never reaches the server, the X-Amz-Target header names the operation. The server core routes by path only.",
    test: (c) => /\/#X-Amz-Target=/.test(c.message ?? ""),
  },
  "parent-scope": {
    side: "mock",
    title: "an object reached through another parent",
    why: "Where the contract can neither list nor make a collection's objects, any key names an object (made on first use), under any parent; the suite expects one found under one parent to be unknown under another.",
    test: (c) => /does not reach a .* through another/.test(c.name),
  },
  paging: {
    side: "mock",
    title: "paging",
    why: "A list whose cursor or total the mock's paging model does not follow.",
    test: (c) => /pages never exceed their size/.test(c.name),
  },
  "read-back": {
    side: "mock",
    title: "a value sent is not read back",
    why: "A create or update member the mock does not store where the answer shows it (a member renamed between request and object, a query parameter).",
    test: (c) => /with other values than it was sent/.test(c.message ?? ""),
  },
  filter: {
    side: "mock",
    title: "list filters",
    why: "A filter the mock applies differently from the contract's statement of it.",
    test: (c) => /keeps exactly the listed objects it matches/.test(c.name),
  },
  other: { side: "mock", title: "other", why: "Not classified yet: the mock's, or the suite's, to look at." },
};

export function kindOf(c) {
  for (const [id, kind] of Object.entries(KINDS)) if (kind.test?.(c)) return id;
  return "other";
}
