// Pure summaries of V8 .cpuprofile files (what `node --cpu-prof` writes, one per thread): self time
// by package or file, by generator stage, and by function. No I/O here, so it is unit-tested
// (test/bench/cpu-profile.test.ts) and used by scripts/bench/profile.mjs.

/** Frames V8 adds that are not JavaScript: their names are already in parentheses. */
const PSEUDO = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

/** Self time in µs of every node that was sampled: each sample's delta belongs to its leaf node. */
export function selfTimes(profile) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  // timeDeltas[i] is the time since the previous sample, i.e. how long samples[i - 1] ran; V8's own
  // DevTools credits it to the sample that ends the interval, so do we (the two differ by one tick).
  for (let i = 0; i < samples.length; i++) self.set(samples[i], (self.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
  return self;
}

/** A file URL or path relative to the workspace root, or null when it is not under it. */
function underRoot(url, root) {
  const p = url.startsWith("file://") ? decodeURIComponent(url.slice("file://".length)) : url;
  const r = root.endsWith("/") ? root : `${root}/`;
  return p.startsWith(r) ? p.slice(r.length) : null;
}

/** Where a frame's code lives: an npm package, a node built-in, a workspace file, or a V8 pseudo frame. */
export function packageOf(callFrame, root) {
  const { url, functionName } = callFrame;
  if (!url) return PSEUDO.has(functionName) ? functionName : "(native or V8 built-in)";
  if (url.startsWith("node:")) return "node built-ins";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm !== -1) {
    const parts = url.slice(nm + "/node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return underRoot(url, root) ?? url;
}

/**
 * The generator stage a contractgen file belongs to, from its path under generators/dist/, named as
 * the generator's own progress lines name them: emit/<x>.js is emitter "<x>", write/format.js is
 * "format", load/ "load" and so on.
 */
export function stageOfFile(rel) {
  const m = /^generators\/dist\/(.+)\.js$/.exec(rel);
  if (!m) return null;
  const p = m[1];
  if (p === "write/format") return "format";
  // A worker thread's dispatcher is like the pipeline: the stage is the module it runs a task of.
  if (p === "pipeline" || p === "cli" || p === "workers/thread") return "pipeline";
  const parts = p.split("/");
  if (parts[0] === "emit" && parts.length > 1) return parts[1];
  return parts[0];
}

/**
 * Stage of one sample's stack (root first). The pipeline calls each stage, so the stage is the first
 * contractgen frame above the innermost pipeline frame: a helper in model/ called by the types
 * emitter counts for the emitter. A stack without a pipeline frame (a worker thread, an async
 * continuation) takes its outermost contractgen frame; one without any contractgen frame is named
 * by its outermost package, marked as reached with no contractgen caller on the stack.
 */
export function stageOfStack(stack, root) {
  const rels = stack.map((f) => (f.url ? underRoot(f.url, root) : null));
  const isOurs = (i) => rels[i] !== null && stageOfFile(rels[i]) !== null;
  let pipeline = -1;
  for (let i = 0; i < stack.length; i++) if (isOurs(i) && stageOfFile(rels[i]) === "pipeline") pipeline = i;
  for (let i = pipeline + 1; i < stack.length; i++) if (isOurs(i)) return stageOfFile(rels[i]);
  if (pipeline !== -1) return stageOfFile(rels[pipeline]);
  const leaf = stack[stack.length - 1];
  if (!leaf || (PSEUDO.has(leaf.functionName) && !leaf.url)) return leaf?.functionName ?? "(root)";
  for (const f of stack) {
    const pkg = packageOf(f, root);
    if (pkg !== "(root)" && pkg !== "node built-ins" && pkg !== "(native or V8 built-in)") return `${pkg} (no contractgen caller on the stack)`;
  }
  return "node built-ins (no contractgen caller on the stack)";
}

/** A frame's file for the function table: path inside its package, or inside the workspace. */
export function fileOf(callFrame, root) {
  const { url } = callFrame;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm !== -1) return url.slice(nm + "/node_modules/".length);
  return underRoot(url, root) ?? url;
}

const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);

/**
 * Aggregates one or more profiles (threads of one process). Idle samples are counted apart: the
 * percentages are of CPU time, which is what the profiles measure.
 */
export function summarise(profiles, root) {
  const byPackage = new Map();
  const byStage = new Map();
  const byFunction = new Map();
  let cpuUs = 0;
  let idleUs = 0;
  const threads = [];
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stackOf = (id) => {
      const s = [];
      for (let at = id; at !== undefined; at = parent.get(at)) s.push(nodes.get(at).callFrame);
      return s.reverse();
    };
    let threadCpu = 0;
    for (const [id, us] of selfTimes(profile)) {
      const cf = nodes.get(id).callFrame;
      if (!cf.url && cf.functionName === "(idle)") {
        idleUs += us;
        continue;
      }
      threadCpu += us;
      add(byPackage, packageOf(cf, root), us);
      add(byStage, stageOfStack(stackOf(id), root), us);
      const where = cf.url ? `${fileOf(cf, root)}:${cf.lineNumber + 1}` : "";
      add(byFunction, `${cf.functionName || "(anonymous)"}${where ? ` ${where}` : ""}`, us);
    }
    cpuUs += threadCpu;
    threads.push({ wallUs: (profile.endTime ?? 0) - (profile.startTime ?? 0), cpuUs: threadCpu });
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { cpuUs, idleUs, threads, byPackage: sorted(byPackage), byStage: sorted(byStage), byFunction: sorted(byFunction) };
}
