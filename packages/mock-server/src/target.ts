/**
 * The mock server as a conformance target: the generated suites load this module by name (the
 * `CONTRACT_TARGET` environment variable) when no `CONTRACT_BASE_URL` is given, so the runtime that
 * runs them never needs to know this server, its start-up or its credentials.
 */
import type { AuthConfig } from "@contractgen/runtime/auth";
import type { ConformanceTarget } from "@contractgen/runtime/conformance";
import { DEFAULT_CREDENTIALS, type MockCredentials } from "./options.js";
import { startMockServer } from "./server.js";
import type { MockState } from "./store/state.js";

/** The runtime's client credentials for the mock's fixed ones: every scheme the three contracts use. */
export function mockAuth(c: MockCredentials = DEFAULT_CREDENTIALS): AuthConfig {
  return {
    bearer: c.bearerToken,
    basic: { username: c.apiKey, password: c.apiSecret },
    oauth1: { consumerKey: c.apiKey, consumerSecret: c.apiSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret },
  };
}

/**
 * Ids of the seeded data that no list operation of the contracts gives (the advertising audiences
 * interface lists no accounts, tailored audiences or custom audiences): what a team would pass to
 * `contractgen test --values` for its own server.
 */
export function knownValues(state: MockState): Record<string, string> {
  const main = [...state.accounts.keys()][0];
  const out: Record<string, string> = {};
  // The core contract shows no operation that lists posts: a post and a post with media to look up.
  const posts = [...state.posts.values()];
  const plain = posts.find((p) => p.attachments === undefined);
  if (plain) out["post_id"] = plain.id;
  const withMedia = posts.find((p) => (p.attachments?.media_keys?.length ?? 0) > 0);
  if (withMedia) out["media_post_id"] = withMedia.id;
  if (main === undefined) return out;
  out["account_id"] = main;
  // Another account of the same user and business: what an audience can be shared with.
  const owner = state.accounts.get(main);
  const second = [...state.accounts.values()].find((a) => a.data.id !== main && owner !== undefined && a.userIds.some((u) => owner.userIds.includes(u)) && a.data.business_id === owner.data.business_id);
  if (second) out["second_account_id"] = second.data.id;
  const audience = [...state.tailoredAudiences.values()].find((a) => a.ownerAccountId === main);
  if (audience) out["tailored_audience_id"] = audience.id;
  const custom = [...state.customAudiences.values()].find((a) => a.accountId === main);
  if (custom) out["custom_audience_id"] = custom.id;
  const list = state.doNotReachLists.list(main)[0];
  if (list) out["do_not_reach_list_id"] = list.data.id;
  return out;
}

/** A fresh in-process mock on a free loopback port: each suite gets its own state. */
export async function startTarget(): Promise<ConformanceTarget> {
  const server = await startMockServer({ port: 0 });
  return { baseUrl: server.url, auth: mockAuth(), destructive: true, values: knownValues(server.state), close: () => server.close() };
}
