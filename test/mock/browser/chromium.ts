import { accessSync, constants } from "node:fs";

/**
 * Where a Chromium (or Chrome) executable is, for the browser test: `CHROMIUM_PATH` when set, else
 * the places Debian's and Ubuntu's packages and Google's install it. The test drives the system's
 * browser because this project's machines reach package registries only, never a browser download.
 */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable, or why there is none (said where the test is skipped or fails). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const chosen = env["CHROMIUM_PATH"];
  if (chosen !== undefined && chosen !== "") {
    return executable(chosen) ? { path: chosen } : { missing: `CHROMIUM_PATH=${chosen} is not an executable file` };
  }
  const found = CANDIDATES.find(executable);
  return found !== undefined
    ? { path: found }
    : { missing: `no Chromium executable (CHROMIUM_PATH unset; none of ${CANDIDATES.join(", ")}); install one (apt-get install chromium) or set CHROMIUM_PATH` };
}
