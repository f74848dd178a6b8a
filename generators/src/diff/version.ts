import type { Bump } from "./change.js";

/**
 * The version after a change of the given size: `2.166.0` with `minor` is `2.167.0`. A version
 * written with two parts (`2.166`, as contracts label themselves) counts as `.0`. Anything else
 * (pre-releases included) is returned unchanged with `none` and rejected otherwise, because a
 * guessed version would publish the wrong one.
 */
export function applyBump(version: string, bump: Bump): string {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version.trim());
  if (!m) {
    if (bump === "none") return version;
    throw new Error(`cannot bump '${version}': expected MAJOR.MINOR or MAJOR.MINOR.PATCH`);
  }
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const patch = Number(m[3] ?? 0);
  switch (bump) {
    case "major":
      return `${major + 1}.0.0`;
    case "minor":
      return `${major}.${minor + 1}.0`;
    case "patch":
      return `${major}.${minor}.${patch + 1}`;
    case "none":
      return `${major}.${minor}.${patch}`;
  }
}
