/** Reading one case's verdict out of the JUnit report `contractgen test --reporter junit` writes. */

/** The outcome of the case named `name` in a JUnit report: passed, failed (with its message) or skipped. */
export function outcome(xml: string, name: string): string {
  // The report holds the name XML-escaped; as a pattern, every character of it stands for itself.
  const escaped = name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
  const literal = escaped.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`<testcase [^>]*name="[^"]*${literal}"[^>]*(/>|>([\\s\\S]*?)</testcase>)`).exec(xml);
  if (!m) return "missing";
  const inner = m[2] ?? "";
  return /<failure/.test(inner) ? `failed: ${inner}` : /<skipped/.test(inner) ? "skipped" : "passed";
}
