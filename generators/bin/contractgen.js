#!/usr/bin/env node
// The installed `contractgen` command. It is a committed file, not build output, because npm links a
// workspace's bin when it installs, before `npm run generate` has built dist/: a bin pointing into
// dist/ would be skipped then and `npx contractgen` would answer "not found" on a fresh clone.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write(
    "contractgen: the generator is not built yet (generators/dist/cli.js is missing).\n" + "In the contractgen repository run `npm run build:generators` (or `npm run generate`), then try again.\n",
  );
  process.exitCode = 4;
} else {
  const { run } = await import(cli.href);
  await run(process.argv.slice(2));
}
