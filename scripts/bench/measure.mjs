// Whole-process measurements shared by the bench scripts: wall time and peak RSS from
// /usr/bin/time, medians over runs, and the load average while they ran (figures from a busy
// machine are only worth reading with it).
import { spawnSync } from "node:child_process";
import os from "node:os";

/**
 * Runs a command under /usr/bin/time; returns wall seconds and peak RSS in MiB. The peak is the
 * largest process of the tree that was waited for (a CLI that re-spawns node is counted by its
 * larger child, not by the sum).
 */
export function measure(args, { cwd, env, allowFail = false } = {}) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", ...args], { cwd, env: env ? { ...process.env, ...env } : process.env, encoding: "utf8", maxBuffer: 256 << 20 });
  if (r.status !== 0 && !allowFail) throw new Error(`${args.join(" ")} failed:\n${r.stdout.slice(0, 4000)}\n${r.stderr.slice(-4000)}`);
  const [wall, kb] = r.stderr.trim().split("\n").pop().split(" ").map(Number);
  return { wall, mem: kb / 1024, status: r.status, stdout: r.stdout };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One-minute load average, rounded for the report. */
export const load1 = () => Math.round(os.loadavg()[0] * 10) / 10;

/**
 * Waits, before a group of rows, until the one-minute load average is at most BENCH_SETTLE_LOAD
 * (default 1) or BENCH_SETTLE seconds have passed (default 75; 0 waits not at all): a group that
 * starts right after GitHub's rows otherwise starts at a load of 3 left by them, and the three
 * specs' row measured 3.4 s with the machine to itself and 4.9 s so. The wait is reported.
 */
export function settle() {
  const most = Number(process.env.BENCH_SETTLE ?? 75);
  const target = Number(process.env.BENCH_SETTLE_LOAD ?? 1);
  const start = Date.now();
  const from = load1();
  while (os.loadavg()[0] > target && Date.now() - start < most * 1000) spawnSync("sleep", ["2"]);
  const waited = (Date.now() - start) / 1000;
  if (waited >= 1) process.stderr.write(`  (settled ${waited.toFixed(0)} s: load ${from} → ${load1()})\n`);
}

/**
 * `runs` measurements of one command: median wall, peak RSS of the largest run, and the range of
 * the one-minute load average seen before each run.
 */
export function bench(label, args, { runs, setup, cwd, env, allowFail } = {}) {
  return benchRounds([{ label, args, setup, cwd, env, allowFail }], runs)[0];
}

/**
 * `runs` rounds over several commands, each round running every command once in order: the rows of
 * a comparison (contractgen and its peers) then see the same machine. On this shared machine the
 * speed drifts by 30% over minutes; measured one command after the other, a peer measured in a fast
 * minute made a ratio swing by as much (GitHub: 1.25× consecutive, 1.06× interleaved, same hour).
 * A command's setup runs before each of its runs, so a cold row may precede the warm row that
 * reuses what it left. Returns one row per command (median wall, peak RSS, load range).
 */
export function benchRounds(commands, runs) {
  settle();
  const samples = commands.map(() => []);
  const loads = commands.map(() => []);
  for (let i = 0; i < runs; i++) {
    commands.forEach(({ args, setup, cwd, env, allowFail }, c) => {
      setup?.();
      loads[c].push(load1());
      samples[c].push(measure(args, { cwd, env, allowFail }));
    });
  }
  return commands.map(({ label }, c) => {
    const row = {
      label,
      wall: median(samples[c].map((s) => s.wall)),
      mem: Math.max(...samples[c].map((s) => s.mem)),
      runs,
      load: [Math.min(...loads[c]), Math.max(...loads[c])],
      last: samples[c][samples[c].length - 1],
    };
    process.stderr.write(`${label.padEnd(58)} ${row.wall.toFixed(2).padStart(6)} s  ${row.mem.toFixed(0).padStart(5)} MiB  (median of ${runs}, load ${row.load.join("–")})\n`);
    return row;
  });
}
