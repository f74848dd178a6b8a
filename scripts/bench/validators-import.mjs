// One process: how long importing a package's precompiled validators takes (milliseconds).
const pkg = process.argv[2];
const t = performance.now();
await import(`@devplatform/${pkg}/validators`);
process.stdout.write(String(performance.now() - t));
