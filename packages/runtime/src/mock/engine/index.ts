/**
 * `@contractgen/runtime/mock-engine`: the generic mock engine a generated package's `./mocks`
 * builds (`createMock`) and the generated Fastify plugin and MSW handlers serve.
 */
export { createMockEngine, DEFAULT_MOCK_CREDENTIALS, type MockCredentials, type MockEngine, type MockEngineOptions, type MockEngineSource } from "./engine.js";
export { parsePrefer, type Preference } from "./prefer.js";
export type { MockCollection, MockFilter, MockOperationRole, MockPaging, MockTable, ResponsePlan } from "./table.js";
