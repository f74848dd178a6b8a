/**
 * A write names one object: another object of the same collection reads the same after it. A
 * server that applies a change to every object of the account, keeps one state for all of them
 * (features added to one account showing on another) or keys two objects alike is caught here,
 * where read-back of the object written never looks.
 *
 * The other object is another value of the write's last path parameter that the server lists for
 * the same parents (another account, for a write to one account's features), read through the GET
 * of the write's own path twice before the write (what differs between those reads moves on its own and is
 * not compared) and once after. An object whose key holds the other's, or is held in it (a folder
 * and a file in it), is not taken: a change inside a container shows on the container.
 */
import { changes } from "./views.js";
import { ok2xx } from "./request.js";
import { where, type RunContext } from "./context.js";
import type { OperationCase } from "./plan.js";
import type { RawResponse } from "../client/transport.js";

type Rec = Record<string, unknown>;

/** How many listed objects are tried for one other than the written one. */
const TRIES = 4;

export interface Witness {
  /** Judges the other object once the write answered `res` (nothing when it was refused). */
  after(res: RawResponse): Promise<void>;
}

/** The same key, or one holding the other (`docs` and `docs/a.txt`; a numeric id and a longer one are skipped alike, which costs nothing). */
const nested = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);

/**
 * Reads another object than the one `write` acts on (at `values`) through `read`, the GET of the
 * write's own path; undefined where there is none to read or it cannot be read alike twice.
 */
export async function watchAnother(ctx: RunContext, write: OperationCase, read: OperationCase, values: Readonly<Rec>): Promise<Witness | undefined> {
  const names = write.parameters.filter((p) => p.in === "path").map((p) => p.name);
  const last = names.at(-1);
  if (last === undefined || values[last] === undefined) return undefined;
  const own = String(values[last]);
  const parents: Rec = {};
  for (const n of names.slice(0, -1)) parents[n] = values[n];
  let other: unknown;
  for (let pick = 0; pick < TRIES && other === undefined; pick++) {
    const found = await ctx.pool.pathValues(read, parents, 0, pick);
    const v = found.values[last];
    if (found.missing.length === 0 && found.origins[last] === "listed" && v !== undefined && !nested(String(v), own)) other = v;
  }
  if (other === undefined) return undefined;
  const at = { ...(await ctx.positive(read, 0, { ...parents, [last]: other })).values, ...parents, [last]: other };
  const first = await ctx.send(read, at, undefined);
  const second = await ctx.send(read, at, undefined);
  if (!ok2xx(first) || !ok2xx(second)) return undefined;
  // What moves on its own between the two reads (a path, or one inside it) is not compared.
  const still = changes(first.body, second.body).map((c) => c.slice(0, c.indexOf(": ")));
  const moves = (c: string): boolean => still.some((p) => c === p || c.startsWith(`${p}.`) || c.startsWith(`${p}[`) || p === "");
  return {
    after: async (res) => {
      if (!ok2xx(res)) return;
      const now = await ctx.send(read, at, undefined);
      ctx.check(ok2xx(now), `${where(write)} on ${own} left another object, ${String(other)}, unreadable: ${where(read)} answered ${now.status}`);
      if (!ok2xx(now)) return;
      const diff = changes(first.body, now.body).filter((c) => !moves(c.slice(0, c.indexOf(": "))));
      ctx.check(diff.length === 0, `${where(write)} on ${own} changed another object, ${String(other)}, as ${where(read)} reads it: ${diff.slice(0, 5).join("; ")}`);
    },
  };
}
