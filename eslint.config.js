// Lint of the hand-written sources (`npm run lint`): the generator, the runtime, the mock server,
// the tests and the scripts. Generated packages are checked by their own tests (they compile under
// strict settings), never linted. The rules are the ones that find defects, not style: the
// recommended sets, and, with type information, promises nobody awaits or handles.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Node's globals for the .mjs scripts (TypeScript files get theirs from the compiler). */
const nodeGlobals = Object.fromEntries(
  [
    "process",
    "console",
    "Buffer",
    "URL",
    "URLSearchParams",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "setImmediate",
    "performance",
    "fetch",
    "AbortController",
    "AbortSignal",
    "structuredClone",
    "TextEncoder",
    "TextDecoder",
    "globalThis",
    "queueMicrotask",
    "Response",
    "Request",
    "Headers",
  ].map((name) => [name, "readonly"]),
);

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      // Generated: their tests compile and run them; the lead's formatting pass leaves them alone too.
      "packages/core/**",
      "packages/ads-audiences/**",
      "packages/ads-campaigns/**",
      // Inputs of tests, some deliberately broken or hostile.
      "test/fixtures/**",
      "**/*.d.ts",
      "**/*.d.mts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: nodeGlobals, sourceType: "module" },
  },
  {
    files: ["generators/src/**/*.ts", "packages/runtime/src/**/*.ts", "packages/mock-server/src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection: an unhandled rejection or a silent failure.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a parameter kept for its position).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Control characters in patterns are how the escaping layer finds what it must escape.
      "no-control-regex": "off",
    },
  },
);
