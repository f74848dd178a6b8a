/**
 * The mock server as a conformance target: the generated suites load this module by name (the
 * `CONTRACT_TARGET` environment variable) when no `CONTRACT_BASE_URL` is given, so the runtime that
 * runs them never needs to know this server, its start-up or its credentials.
 */
import type { AuthConfig } from "@contractgen/runtime/auth";
import type { ConformanceTarget } from "@contractgen/runtime/conformance";
import { DEFAULT_CREDENTIALS, type MockCredentials } from "./options.js";
import { MEDIA_PREFIX } from "./seed.js";
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
 * interface lists no accounts, tailored audiences or custom audiences), and the objects the
 * campaigns workflows may change or must be refused: what a team would pass to
 * `contractgen test --values` for its own server.
 */
export function knownValues(state: MockState): Record<string, unknown> {
  const main = [...state.accounts.keys()][0];
  const out: Record<string, unknown> = {};
  // The core contract shows no operation that lists posts: a post and a post with media to look up.
  const posts = [...state.posts.values()];
  const plain = posts.find((p) => p.attachments === undefined);
  if (plain) out["post_id"] = plain.id;
  const withMedia = posts.find((p) => (p.attachments?.media_keys?.length ?? 0) > 0);
  if (withMedia) out["media_post_id"] = withMedia.id;
  // The posts a lookup names (getPostsByIds' ids): one plain, one with media, one referring to another.
  const referring = posts.find((p) => (p.referenced_posts?.length ?? 0) > 0);
  const lookup = [plain?.id, withMedia?.id, referring?.id].filter((x, i, all): x is string => x !== undefined && all.indexOf(x) === i);
  if (lookup.length > 0) out["ids"] = lookup;
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

  // The campaigns workflows (spec/ads-campaigns.arazzo.yaml) need objects only a team knows.
  // Line items can be neither listed nor created through the contract; its examples name the first
  // campaign's line items, which the suite's own cases update and delete, so the workflows take the
  // last two (the second campaign's): one to update and put back, one to delete (not reversible).
  const lineItems = state.lineItems.list(main).filter((l) => !l.deleted);
  const updatable = lineItems[lineItems.length - 2];
  const deletable = lineItems[lineItems.length - 1];
  if (updatable && deletable) {
    out["updatable_line_item_id"] = updatable.id;
    out["deletable_line_item_id"] = deletable.id;
  }
  // The fixed credentials act for the default user; every other seeded user granted it access.
  out["own_user_id"] = state.defaultUserId;
  // The user an advertiser post is made as (no operation of the contracts lists users): the
  // contract's example names one this server does not have.
  out["as_user_id"] = Number(state.defaultUserId);
  // The user who approves the OAuth 1.0a browser step (its screen_name), as a team names its test user.
  const own = state.users.get(state.defaultUserId);
  if (own?.username !== undefined) out["screen_name"] = own.username;
  const granting = [...state.users.keys()].find((id) => id !== state.defaultUserId);
  if (granting) out["granting_user_id"] = granting;
  // Association and sandbox-only refusals: another user's account, and a production account of the
  // user other than the main one (so a server that wrongly deletes it does not take the others' data).
  const accounts = [...state.accounts.entries()];
  const foreign = accounts.find(([, a]) => !a.userIds.includes(state.defaultUserId));
  if (foreign) {
    out["other_user_account_id"] = foreign[0];
    // The contract's x-owned account_id: the object of another owner the suite must see refused.
    out["account_id@foreign"] = foreign[0];
  }
  // The contract's x-owned product_catalog_id: another user's catalog (one catalog per user).
  const foreignCatalog = [...state.catalogs.entries()].find(([, c]) => c.userId !== state.defaultUserId);
  if (foreignCatalog) out["product_catalog_id@foreign"] = foreignCatalog[0];
  const production = accounts.find(([id, a]) => id !== main && !a.sandbox && a.userIds.includes(state.defaultUserId));
  if (production) out["production_account_id"] = production[0];
  // A key listAccountFeatures takes that the main account does not hold.
  const held = state.accounts.get(main)?.features ?? new Set<string>();
  const unheld = ["REACH_AND_FREQUENCY_ANALYTICS", "REACH_FREQUENCY_CAP", "WEBSITE_CLICKS_CPM_BILLING"].find((k) => !held.has(k));
  if (unheld) out["unheld_feature_key"] = unheld;
  // The media library workflows add uploads the contract cannot make (it shows no upload operation):
  // keys no seeded object holds, each of the category its prefix stands for (handlers/media.ts).
  const upload = (prefix: number): string => state.ids.mediaKey(prefix);
  out["promo_video_upload_key"] = upload(MEDIA_PREFIX.promoVideo);
  out["image_upload_key"] = upload(MEDIA_PREFIX.image);
  out["second_image_upload_key"] = upload(MEDIA_PREFIX.image);
  out["poster_upload_key"] = upload(MEDIA_PREFIX.image);
  out["video_upload_key"] = upload(MEDIA_PREFIX.video);
  out["second_video_upload_key"] = upload(MEDIA_PREFIX.video);
  out["third_video_upload_key"] = upload(MEDIA_PREFIX.video);
  return out;
}

/** A fresh in-process mock on a free loopback port: each suite gets its own state. */
export async function startTarget(): Promise<ConformanceTarget> {
  const server = await startMockServer({ port: 0 });
  // Each suite gets a fresh process: its seeded objects are the suite's to delete where the contract cannot make one.
  return { baseUrl: server.url, auth: mockAuth(), destructive: true, disposable: true, values: knownValues(server.state), close: () => server.close() };
}
