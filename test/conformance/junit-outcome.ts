/** Reading one case's verdict out of the JUnit report `contractgen test --reporter junit` writes. */

/** The outcome of the case named `name` in a JUnit report: passed, failed (with its message) or skipped. */
export function outcome(xml: string, name: string): string {
  const m = new RegExp(`<testcase [^>]*name="[^"]*${name}"[^>]*(/>|>([\\s\\S]*?)</testcase>)`).exec(xml);
  if (!m) return "missing";
  const inner = m[2] ?? "";
  return /<failure/.test(inner) ? `failed: ${inner}` : /<skipped/.test(inner) ? "skipped" : "passed";
}
