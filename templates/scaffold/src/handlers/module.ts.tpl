import type * as api from {{serverModule}};
import { notImplemented } from "@contractgen/runtime/server";

// contractgen scaffold adds a handler here for each new operation of this tag and marks handlers
// whose operation left the contract @deprecated; it never changes what you write.
{{about}}export const {{exportName}} = {
} satisfies Partial<api.{{handlersType}}>;
