/**
 * The order suites run in: the order `contractgen test` lists them (package folder names, then the
 * `--spec` order). vitest's own sequencer puts files that failed or ran long last time first, so two
 * runs against one server would change its state in different orders.
 */
import type { TestSequencer, TestSequencerConstructor, TestSpecification } from "vitest/node";

export function inGivenOrder(files: readonly string[]): TestSequencerConstructor {
  const rank = (spec: TestSpecification): number => {
    const i = files.indexOf(spec.moduleId);
    return i < 0 ? files.length : i;
  };
  return class GivenOrder implements TestSequencer {
    shard(specs: TestSpecification[]): TestSpecification[] {
      return specs;
    }
    sort(specs: TestSpecification[]): TestSpecification[] {
      return [...specs].sort((a, b) => rank(a) - rank(b));
    }
  };
}
