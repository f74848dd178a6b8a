export { createMockServer, createMockState, startMockServer, type MockServer, type RunningMockServer } from "./server.js";
export {
  DEFAULT_CREDENTIALS,
  DEFAULT_LIMITS,
  type MockCredentials,
  type MockLimits,
  type MockLogEntry,
  type MockServerOptions,
  type StartMockServerOptions,
} from "./options.js";
export { MockState } from "./store/state.js";
export type { RateRule } from "./rate-limit.js";
export type * from "./store/records.js";
export { deliverToReceiver, DeliveryRequestError, type DeliverOptions, type DeliveryOutcome } from "./deliveries.js";
