// @ts-check
/** Reads the JUnit XML `contractgen test --reporter junit` writes: every test case and its verdict. */

/**
 * @typedef {{ file: string; name: string; state: "passed" | "failed" | "skipped"; message: string }} TestCase
 */

/** @param {string} s */
function unescapeXml(s) {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, "&");
}

/** @param {string} attributes @param {string} name */
function attribute(attributes, name) {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes);
  return m ? unescapeXml(m[1] ?? "") : "";
}

/**
 * @param {string} xml
 * @returns {TestCase[]}
 */
export function parseJUnit(xml) {
  /** @type {TestCase[]} */
  const cases = [];
  const re = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = re.exec(xml); m !== null; m = re.exec(xml)) {
    const attrs = m[1] ?? "";
    const body = m[2] ?? "";
    const failure = /<(failure|error)\b([^>]*)>?/.exec(body);
    const state = failure ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed";
    cases.push({ file: attribute(attrs, "classname"), name: attribute(attrs, "name"), state, message: failure ? attribute(failure[2] ?? "", "message") : "" });
  }
  return cases;
}
