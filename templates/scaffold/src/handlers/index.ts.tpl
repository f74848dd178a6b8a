import type * as api from {{serverModule}};

// contractgen scaffold adds an import and a spread here for each new handler module.
export const handlers = {
} satisfies Partial<api.{{handlersType}}>;
