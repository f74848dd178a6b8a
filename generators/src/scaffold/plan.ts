/**
 * What a scaffolded server should hold for a contract: one handler module per tag (operations
 * without a tag go to `default`), one handler per operation, named as the generated server names
 * them. Computed from the IR alone; the editing step compares it with what is on disk.
 */
import type { ApiModel, Operation } from "../model/ir.js";
import { camelCase, kebabCase, uniqueNames } from "../model/naming.js";
import { serverNames } from "../emit/server.js";

export interface PlannedHandler {
  readonly operation: Operation;
  /** Key in `<Name>Handlers` (the operation's method name). */
  readonly methodName: string;
  readonly inputType: string;
  readonly replyType: string;
}

export interface PlannedModule {
  /** The tag as the contract spells it (`default` for untagged operations). */
  readonly tag: string;
  /** File under `src/handlers/` without extension (`posts`). */
  readonly file: string;
  /** The exported handler object (`postsHandlers`). */
  readonly exportName: string;
  readonly handlers: readonly PlannedHandler[];
}

export interface ScaffoldPlan {
  readonly handlersType: string;
  readonly pluginName: string;
  readonly modules: readonly PlannedModule[];
}

const UNTAGGED = "default";

export function planScaffold(model: ApiModel): ScaffoldPlan {
  const names = serverNames(model);
  const byTag = new Map<string, PlannedHandler[]>();
  model.operations.forEach((operation, i) => {
    const tag = operation.tags[0] ?? UNTAGGED;
    const list = byTag.get(tag) ?? [];
    list.push({ operation, methodName: operation.methodName, inputType: names.inputNames[i] as string, replyType: names.replyNames[i] as string });
    byTag.set(tag, list);
  });
  const tags = [...byTag.keys()];
  // `index` is the barrel's own file; two tags that spell the same file name get 2, 3 … in tag order.
  const files = uniqueNames(tags, (t) => kebabCase(t) || UNTAGGED, ["index"]);
  const exportNames = uniqueNames(tags, (t) => camelCase(`${t} handlers`, "handlers"), ["handlers"]);
  return {
    handlersType: names.handlersName,
    pluginName: names.pluginName,
    modules: tags.map((tag, i) => ({ tag, file: files[i] as string, exportName: exportNames[i] as string, handlers: byTag.get(tag) ?? [] })),
  };
}
