/** A baseline recorded at one seed holds at every seed: which drawn request shows a deviation is the seed's choice. */
import { describe, expect, it } from "vitest";
import { compareWithBaseline, updatedBaseline } from "../../generators/src/contract-test/baseline.js";
import type { CaseResult } from "../../generators/src/contract-test/results.js";

const result = (check: string, state: CaseResult["state"]): CaseResult => ({ package: "am", operation: "getSilences", check, state });

describe("baseline across seeds", () => {
  const recorded = updatedBaseline({ known: [] }, [result("getSilences: answers valid request 3 with a declared status, media type and body", "fail")], ["am"]);

  it("knows the deviation when another drawn request shows it, and does not call it fixed", () => {
    const verdict = compareWithBaseline(
      [
        result("getSilences: answers valid request 2 with a declared status, media type and body", "fail"),
        result("getSilences: answers valid request 3 with a declared status, media type and body", "pass"),
      ],
      recorded,
    );
    expect(verdict.fresh).toEqual([]);
    expect(verdict.known.length).toBe(1);
    expect(verdict.fixed).toEqual([]);
  });

  it("calls it fixed when no drawn request shows it any more", () => {
    const verdict = compareWithBaseline(
      [1, 2, 3].map((n) => result(`getSilences: answers valid request ${n} with a declared status, media type and body`, "pass")),
      recorded,
    );
    expect(verdict.fixed.length).toBe(3);
  });

  it("still fails on a different check of the same operation", () => {
    const verdict = compareWithBaseline([result("getSilences: refuses a request with filter of the wrong type", "fail")], recorded);
    expect(verdict.fresh.length).toBe(1);
  });
});
