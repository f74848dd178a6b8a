import type { Emitter } from "./emitter.js";
import { clientEmitter } from "./client.js";
import { conformanceEmitter } from "./conformance/index.js";
import { deliveriesEmitter } from "./deliveries.js";
import { mocksEmitter } from "./mocks.js";
import { mswEmitter } from "./msw.js";
import { operationsEmitter } from "./operations.js";
import { packageEmitter } from "./package.js";
import { problemsEmitter } from "./problems.js";
import { mcpEmitter } from "./mcp.js";
import { receiverEmitter } from "./receiver.js";
import { serverEmitter } from "./server.js";
import { typesEmitter } from "./types.js";
import { validatorsEmitter } from "./validators/index.js";

/** Every artifact, in the order progress is reported and exports are listed. */
export const EMITTERS: readonly Emitter[] = [
  typesEmitter,
  operationsEmitter,
  validatorsEmitter,
  problemsEmitter,
  clientEmitter,
  serverEmitter,
  receiverEmitter,
  mcpEmitter,
  mocksEmitter,
  mswEmitter,
  deliveriesEmitter,
  conformanceEmitter,
  packageEmitter,
];

export type { Emitter, GeneratedFile, EmitContext } from "./emitter.js";
