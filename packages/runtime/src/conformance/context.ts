/**
 * What every check of a conformance run shares: the target, the sender, discovered path values, the
 * seed, and the way a failure is explained (operation, violation, seed, a curl command).
 */
import type { AuthConfig, OAuth1RequestOptions } from "../client/auth.js";
import type { OperationCase, SuiteTools, TestApi } from "./plan.js";
import { curlCommand, describeResponse, type Credentials, type Sender } from "./request.js";
import type { ConformanceTarget } from "./target.js";
import type { ObjectPool } from "./objects.js";
import { buildPositive, type PositiveRequest } from "./synth.js";
import type { RawResponse } from "../client/transport.js";

export interface RunContext {
  readonly expect: TestApi["expect"];
  readonly tools: SuiteTools;
  readonly sender: Sender;
  readonly seed: number;
  /** The package's mock document (`#/components/schemas/…` resolves in it). */
  readonly root: unknown;
  /** The contract marks every member its objects do not show as sent (`x-read-back-complete`). */
  readonly readBackComplete: boolean;
  target(): ConformanceTarget;
  op(id: string): OperationCase | undefined;
  /** Path values for `op` from the server (see objects.ts); parameters no source gives are left out. */
  pathValues(op: OperationCase): Promise<Record<string, unknown>>;
  /** The objects the run acts on: listed, made, given, consumed. */
  readonly pool: ObjectPool;
  /** Forgets listed keys (after a case changed what the lists answer). */
  forget(): void;
  send(op: OperationCase, values: Readonly<Record<string, unknown>>, body: unknown, auth?: Credentials, oauth1?: OAuth1RequestOptions): Promise<RawResponse>;
  /** A valid positive request (see buildPositive); a failure when none can be built. */
  positive(op: OperationCase, index: number, fixed?: Readonly<Record<string, unknown>>): Promise<PositiveRequest>;
  /** Fails with `message` plus the seed and a curl command of the last request unless `ok`. */
  check(ok: boolean, message: string): void;
  /** Fails unless the answer fits a status, media type and body the contract declares for `op`. */
  checkShape(op: OperationCase, res: RawResponse): void;
  where(op: OperationCase): string;
  describe(res: RawResponse): string;
}

export function where(op: OperationCase): string {
  return `${op.id} (${op.method} ${op.path})`;
}

/** The lines a failure ends with: how to run the same cases again and how to repeat the request. */
export function reproduction(seed: number, sender: Sender, reveal: boolean): string {
  const last = sender.last;
  return `\n    seed ${seed}: contractgen test --seed ${seed}` + (last ? `\n    repeat: ${curlCommand(last, reveal)}` : "");
}

export function positiveOrFail(
  ctx: Pick<RunContext, "tools" | "seed" | "root" | "check">,
  op: OperationCase,
  index: number,
  fixed: Readonly<Record<string, unknown>>,
  refs: { readonly query: Readonly<Record<string, unknown>>; readonly body: Readonly<Record<string, unknown>> } = { query: {}, body: {} },
): PositiveRequest {
  const built = buildPositive(op, index, ctx.seed, fixed, ctx.tools, ctx.root, refs.body, refs.query);
  if (!built.ok) {
    ctx.check(false, `${where(op)}: no request the contract's own validators accept could be built (${built.why}); the contract may be unsatisfiable`);
    throw new Error("unreachable: check failed");
  }
  return built.request;
}

export { describeResponse };
export type { AuthConfig };
