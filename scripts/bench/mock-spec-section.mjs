// The "Mock --spec beside Prism" section of docs/benchmarks.md: requests per second and server CPU
// per request of `contractgen mock --spec`, Prism and a bare Fastify route on the same documents
// and routes, with the issue's targets. Figures come from scripts/bench/mock-spec.mjs (through
// run.mjs); this file only lays them out.

export const MOCK_SPEC_SECTION = "Mock --spec beside Prism";

const SERVERS = {
  contractgen: "contractgen mock --spec",
  "contractgen-before": "contractgen mock --spec on the --before runtime",
  prism: "Prism, logging off",
  "prism-logging": "Prism, default logging",
  fastify: "bare Fastify",
};
const ROUTE_NAMES = { read: "GET by id", list: "list", create: "POST create" };
const TARGET_PRISM = 20;
const TARGET_BARE = 0.5;

const rps = (x) => (x === undefined ? "" : x.rps.toFixed(0));
const cpu = (x) => (x === undefined || !Number.isFinite(x.cpuUs) ? "" : x.cpuUs.toFixed(0));
const times = (a, b) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);
const shown = (r) => (r === undefined ? "" : `${r.toFixed(r < 10 ? 2 : 1)}×`);
const verdict = (r, target) => (r === undefined ? "" : r >= target ? "met" : "**not met**");

/** result: scripts/bench/mock-spec.mjs's JSON; run: { command, date, commit, note }. */
export function mockSpecSection(result, run) {
  const loads = result.documents.flatMap((d) => d.load);
  const lines = [
    `## ${MOCK_SPEC_SECTION} and bare Fastify`,
    "",
    ...(run.note ? [run.note, ""] : []),
    `- command: \`${run.command}\` (scripts/bench/mock-spec.mjs)`,
    `- date: ${run.date}; contractgen at commit \`${run.commit}\`; ${result.cores} × ${result.cpu}, Node ${result.node}; one-minute load average ${Math.min(...loads)}–${Math.max(...loads)} during the loads (other work shares this machine)`,
    `- load: autocannon in the bench's own process, ${result.connections} connections, ${result.duration} s per route and server, ${result.rounds} rounds, the servers' order rotating per round; medians over the rounds. Each server is its own process on loopback. Before its first counted load each server gets ${result.warmup} s on each GET route, not counted.`,
    "- servers: `contractgen mock --spec <document> --quiet` (validated requests, credentials checked for their scheme and OAuth 1.0a signatures verified, state kept, every answer checked against the declared response); `prism mock <document>` of @stoplight/prism-cli, once with `-v silent` (its logging off, as the mock runs `--quiet`) and once as it runs by default (a log line per request, to /dev/null here); a bare Fastify server with one hand-written route per measured route answering a fixed object: the mock's own answer to that route on a fresh start, so the same shape and size. The mock is started afresh every round (its creates would otherwise fill the next list) and its create is loaded last; the others keep no state and run for the whole document.",
    "- CPU µs per request: the server process's user + system CPU time over the load (from /proc) divided by the requests it answered. On a shared machine throughput moves with the neighbours and the load generator shares the two cores; CPU per request moves far less, and `× bare (CPU)` (bare Fastify's CPU per request over the server's) is the ratio the server's own cost allows. The targets are judged on req/s, as the issue states them.",
    "",
  ];
  for (const doc of result.documents) {
    const s = doc.servers;
    lines.push(
      `### ${doc.title}`,
      "",
      `Routes: ${Object.entries(doc.routes)
        .map(([r, text]) => `${ROUTE_NAMES[r] ?? r} \`${text}\` (${doc.bodyBytes[r]} bytes answered by the mock)`)
        .join("; ")}.`,
      "",
      `| route | ${Object.keys(s)
        .map((n) => `${SERVERS[n] ?? n} req/s`)
        .join(" | ")} | ${Object.keys(s)
        .map((n) => `${SERVERS[n] ?? n} CPU µs/req`)
        .join(" | ")} |`,
      `| --- | ${Object.keys(s)
        .map(() => "---:")
        .join(" | ")} | ${Object.keys(s)
        .map(() => "---:")
        .join(" | ")} |`,
    );
    const routes = Object.keys(s.contractgen ?? Object.values(s)[0] ?? {});
    for (const r of routes) {
      lines.push(
        `| ${ROUTE_NAMES[r] ?? r} | ${Object.values(s)
          .map((x) => rps(x[r]))
          .join(" | ")} | ${Object.values(s)
          .map((x) => cpu(x[r]))
          .join(" | ")} |`,
      );
    }
    lines.push("");
    const ours = s.contractgen;
    if (ours) {
      lines.push(
        `| route | × Prism, logging off | × Prism, default logging | × bare Fastify | × Prism, logging off (CPU) | × bare Fastify (CPU) | ≥ ${TARGET_PRISM}× Prism (logging off) | ≥ ${TARGET_BARE}× bare |`,
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
      );
      for (const r of routes) {
        const o = ours[r];
        const overPrism = times(o?.rps, s.prism?.[r]?.rps);
        const overLogging = times(o?.rps, s["prism-logging"]?.[r]?.rps);
        const overBare = times(o?.rps, s.fastify?.[r]?.rps);
        const cpuBare = times(s.fastify?.[r]?.cpuUs, o?.cpuUs);
        const cpuPrism = times(s.prism?.[r]?.cpuUs, o?.cpuUs);
        lines.push(
          `| ${ROUTE_NAMES[r] ?? r} | ${shown(overPrism)} | ${shown(overLogging)} | ${shown(overBare)} | ${shown(cpuPrism)} | ${shown(cpuBare)} | ${verdict(overPrism, TARGET_PRISM)} | ${verdict(overBare, TARGET_BARE)} |`,
        );
      }
      lines.push("");
    }
    const bad = Object.entries(s).flatMap(([n, byRoute]) =>
      Object.entries(byRoute)
        .filter(([, x]) => x.non2xx > 0 || x.errors > 0)
        .map(([r, x]) => `${SERVERS[n] ?? n} ${ROUTE_NAMES[r] ?? r}: ${x.non2xx} non-2xx, ${x.errors} errors of ${x.requests}`),
    );
    lines.push(
      `Every round's req/s: ${Object.entries(s)
        .map(
          ([n, byRoute]) =>
            `${SERVERS[n] ?? n} ${Object.entries(byRoute)
              .map(([r, x]) => `${ROUTE_NAMES[r] ?? r} ${x.rounds.join(", ")}`)
              .join("; ")}`,
        )
        .join(". ")}. ${bad.length > 0 ? `Answers other than 2xx: ${bad.join("; ")}.` : "Every answer counted was a 2xx."}`,
      "",
      `Start-up until the port answers (median): ${Object.entries(doc.startMs)
        .map(([n, ms]) => `${SERVERS[n] ?? n} ${(ms / 1000).toFixed(1)} s`)
        .join(", ")}; the mock's first start (the package generated into the cache unless it was there) ${(doc.firstStartMs / 1000).toFixed(1)} s.`,
      "",
    );
  }
  return lines.join("\n");
}
