/**
 * A date-time moved to another UTC offset stays the same instant, keeps how precisely it was
 * written (minutes, seconds, fraction), and is never in the offset it came in.
 */
import { describe, expect, it } from "vitest";
import { inOtherOffset } from "../../packages/runtime/src/conformance/zones.js";

describe("inOtherOffset", () => {
  const cases: { given: string; want: string | undefined }[] = [
    { given: "2025-05-07T12:00:00Z", want: "2025-05-07T17:30:00+05:30" },
    { given: "2025-05-07T12:00Z", want: "2025-05-07T17:30+05:30" },
    { given: "2025-05-07t12:00:00.123z", want: "2025-05-07T17:30:00.123+05:30" },
    { given: "2025-05-07T23:59:59+05:30", want: "2025-05-07T14:59:59-03:30" },
    { given: "2025-12-31T20:00:00-08:00", want: "2026-01-01T09:30:00+05:30" },
    { given: "2024-02-28T20:00:00Z", want: "2024-02-29T01:30:00+05:30" },
    { given: "2025-05-07", want: undefined },
    { given: "12:00:00Z", want: undefined },
    { given: "2025-13-45T99:00:00Z", want: undefined },
    { given: "2025-05-07T12:00:00Z<script>", want: undefined },
    { given: "", want: undefined },
  ];
  for (const { given, want } of cases) {
    it(`${JSON.stringify(given)} → ${JSON.stringify(want)}`, () => {
      const got = inOtherOffset(given);
      expect(got).toBe(want);
      if (got !== undefined) expect(Date.parse(got)).toBe(Date.parse(given));
    });
  }
});
