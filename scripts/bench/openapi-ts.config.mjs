// @hey-api/openapi-ts's config for the bench, in the shape of the pinned version (0.99: `output` is
// an object with `path`, post-processing is `output.postProcess`, the HTTP client is a plugin;
// older releases had `client`, `output.format`/`output.lint` and other defaults). It is a plain
// object rather than `defineConfig(...)` so that loading it does not import the generator twice.
//
// BENCH_HEYAPI_JOBS holds [{ input, output }]; one job per spec, all in one process, as a project
// with several specs runs it. Each job gets the generator's defaults: types (@hey-api/typescript),
// SDK functions (@hey-api/sdk) and the fetch client (@hey-api/client-fetch), no formatter or
// linter (postProcess: []), and no tsconfig lookup (tsConfigPath: null: 0.99 would otherwise use
// the first tsconfig*.json above its own node_modules folder, this repository's NodeNext one, and
// add ".js" to every import; without it imports are extensionless, for moduleResolution bundler).
const jobs = JSON.parse(process.env.BENCH_HEYAPI_JOBS ?? "[]");
if (jobs.length === 0) throw new Error("BENCH_HEYAPI_JOBS is empty: run through scripts/bench/heyapi.mjs");

export default jobs.map(({ input, output }) => ({
  input: { path: input },
  output: { path: output, postProcess: [], tsConfigPath: null },
  plugins: ["@hey-api/typescript", "@hey-api/sdk", "@hey-api/client-fetch"],
  // A crash report would otherwise be written into the working folder.
  logs: { file: false },
}));
