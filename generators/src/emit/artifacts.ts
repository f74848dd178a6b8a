/**
 * Which artifacts a package gets. A config may ask for a subset (a client-only package); what an
 * asked-for artifact imports comes with it, so every subset compiles.
 */
import type { Emitter } from "./emitter.js";

export const ARTIFACTS = ["types", "operations", "validators", "problems", "client", "server", "receiver", "mcp", "mocks", "msw", "deliveries", "conformance"] as const;
export type ArtifactName = (typeof ARTIFACTS)[number];

/** What each artifact's generated code imports from the others. */
const REQUIRES: Readonly<Record<ArtifactName, readonly ArtifactName[]>> = {
  types: [],
  operations: [],
  validators: ["types"],
  problems: ["validators", "types"],
  client: ["problems", "types"],
  server: ["validators", "types"],
  receiver: ["validators", "types"],
  mcp: ["client", "validators", "problems", "types"],
  mocks: ["validators", "types"],
  msw: ["mocks", "server", "validators", "types"],
  deliveries: ["mocks", "validators", "types"],
  conformance: ["validators", "mocks", "types"],
};

export function isArtifact(name: string): name is ArtifactName {
  return (ARTIFACTS as readonly string[]).includes(name);
}

/**
 * The emitters for `artifacts` and what they need, in the usual order; every one when undefined.
 * The emitters load on first use: a no-op run and the config loader need only the names above.
 */
export async function emittersFor(artifacts: readonly ArtifactName[] | undefined): Promise<readonly Emitter[]> {
  const { EMITTERS } = await import("./index.js");
  if (artifacts === undefined) return EMITTERS;
  const wanted = new Set<string>(["package"]);
  const add = (a: ArtifactName): void => {
    if (wanted.has(a)) return;
    wanted.add(a);
    for (const r of REQUIRES[a]) add(r);
  };
  for (const a of artifacts) add(a);
  return EMITTERS.filter((e) => wanted.has(e.name));
}
