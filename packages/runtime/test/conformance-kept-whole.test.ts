/**
 * A text written at its length limit is kept whole: the answer of a write that accepted it must not
 * hold it cut short. Judged only where the answer shows the member as text.
 */
import { describe, expect, it } from "vitest";
import { cutShortMember } from "../src/conformance/kept-whole.js";
import type { BoundaryCase } from "../src/conformance/plan.js";

const max = "x".repeat(20);
const inBody: BoundaryCase = { label: "with body member title at its maximum length 20", in: "body", bodySet: { pointer: "/title", value: max } };
const nested: BoundaryCase = { label: "with body member destination/url at its maximum length 20", in: "body", bodySet: { pointer: "/destination/url", value: max } };
const inQuery: BoundaryCase = { label: "with name at its maximum length 20", in: "query", set: { name: max } };

const cases: { name: string; b: BoundaryCase; answer: unknown; want: RegExp | undefined }[] = [
  { name: "kept whole in data", b: inBody, answer: { data: { title: max } }, want: undefined },
  { name: "cut in data", b: inBody, answer: { data: { title: "x".repeat(10) } }, want: /^the answer holds title cut to 10 of the 20 characters sent$/ },
  { name: "cut in a bare answer", b: inBody, answer: { title: "x".repeat(19) }, want: /cut to 19 of the 20/ },
  { name: "cut to nothing", b: inBody, answer: { data: { title: "" } }, want: /cut to 0 of the 20/ },
  { name: "a nested member cut", b: nested, answer: { data: { destination: { url: "xxxx" } } }, want: /destination\/url cut to 4 of the 20/ },
  { name: "a query member cut", b: inQuery, answer: { data: { name: "xxx" } }, want: /name cut to 3 of the 20/ },
  { name: "not shown: not judged", b: inBody, answer: { data: { id: "1" } }, want: undefined },
  { name: "answered as something else (not a prefix): not judged", b: inBody, answer: { data: { title: "yyy" } }, want: undefined },
  { name: "answered as another type: not judged", b: inBody, answer: { data: { title: 5 } }, want: undefined },
  { name: "a list answer: not judged", b: inBody, answer: { data: [{ title: "x" }] }, want: undefined },
  { name: "a number boundary: not judged", b: { label: "with count at its maximum 10", in: "query", set: { count: 10 } }, answer: { data: { count: 1 } }, want: undefined },
];

describe("a text at its length limit is kept whole", () => {
  it.each(cases)("$name", ({ b, answer, want }) => {
    const got = cutShortMember(b, answer);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });
});
