/**
 * Response rules of the contracts (`x-rules` on a response object): for every rule an answer that
 * keeps it and one that breaks it, judged by the runtime exactly as the generated conformance suite
 * judges answers (the rule as the generated plan carries it, through `brokenRules`).
 */
import { describe, expect, it } from "vitest";
import { brokenRules } from "../../packages/runtime/src/conformance/invariants.js";
import type { ConformancePlan, ResponseRule } from "../../packages/runtime/src/conformance/plan.js";
import { plan as audiences } from "../../packages/ads-audiences/test/conformance.plan.js";
import { plan as campaigns } from "../../packages/ads-campaigns/test/conformance.plan.js";
import { plan as core } from "../../packages/core/test/conformance.plan.js";
import { mockDocument as coreDoc } from "../../packages/core/compiled/mocks.data.js";
import { mockDocument as audiencesDoc } from "../../packages/ads-audiences/compiled/mocks.data.js";
import { mockDocument as campaignsDoc } from "../../packages/ads-campaigns/compiled/mocks.data.js";
import { declaredRules } from "./ads-rules-support.js";
import { deletedRow, equalsRow, exchange, holding, liveUnlessAskedRow, type Row } from "./response-rules-support.js";
import { rows as coreRows } from "./response-rules/core.js";
import { rows as audiencesRows } from "./response-rules/ads-audiences.js";
import { rows as campaignsRows } from "./response-rules/ads-campaigns.js";

const ROWS: Row[] = [
  ...coreRows,
  ...audiencesRows,
  ...campaignsRows,
  ...(
    [
      ["catalog-update-answers-the-catalog", "/body/data/id", "/request/path/product_catalog_id"],
      ["catalog-update-sets-the-name", "/body/data/name", "/request/query/name"],
      ["catalog-delete-answers-the-catalog", "/body/data/id", "/request/path/product_catalog_id"],
      ["catalog-create-names-it", "/body/data/name", "/request/query/name"],
      ["product-set-create-keeps-type", "/body/data/type", "/request/body/type"],
      ["product-set-create-keeps-name", "/body/data/name", "/request/body/name"],
      ["product-set-read-answers-the-set", "/body/data/id", "/request/path/product_set_id"],
      ["permission-create-on-the-audience", "/body/data/tailored_audience_id", "/request/path/tailored_audience_id"],
      ["permission-create-grants-the-account", "/body/data/granted_account_id", "/request/query/granted_account_id"],
      ["permission-create-at-the-level", "/body/data/permission_level", "/request/query/permission_level"],
      ["permission-delete-answers-the-permission", "/body/data/id", "/request/path/tailored_audience_permission_id"],
      ["permission-delete-on-the-audience", "/body/data/tailored_audience_id", "/request/path/tailored_audience_id"],
      ["do-not-reach-delete-answers-the-list", "/body/data/id", "/request/path/do_not_reach_list_id"],
    ] as const
  ).map(([rule, left, right]) => equalsRow(rule, left, right)),
  ...["permission-delete-answers-deleted", "do-not-reach-delete-answers-deleted"].map(deletedRow),
  { rule: "permission-create-not-deleted", keeps: holding({ "/body/data/deleted": false }), breaks: holding({ "/body/data/deleted": true }) },
  ...["membership-success-has-no-errors", "do-not-reach-success-has-no-errors"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": { success_count: 1, total_count: 1 }, "/body/errors": [], "/body/operation_errors": [] }),
    breaks: holding({ "/body/data": { success_count: 1, total_count: 1 }, "/body/operation_errors": [{ index: 0 }] }),
  })),
  ...(
    [
      ["account-media-read-answers-it", "/body/data/id", "/request/path/account_media_id"],
      ["account-media-delete-answers-it", "/body/data/id", "/request/path/account_media_id"],
      ["card-read-answers-it", "/body/data/0/id", "/request/path/card_id"],
      ["legacy-card-delete-answers-it", "/body/data/id", "/request/path/card_id"],
      ["media-library-read-answers-it", "/body/data/media_key", "/request/path/media_key"],
      ["media-library-update-answers-it", "/body/data/media_key", "/request/path/media_key"],
      ["media-library-delete-answers-it", "/body/data/media_key", "/request/path/media_key"],
      ["poll-card-read-answers-it", "/body/data/id", "/request/path/card_id"],
      ["video-conversation-card-read-answers-it", "/body/data/id", "/request/path/card_id"],
      ["account-read-answers-it", "/body/data/id", "/request/path/account_id"],
      ["account-update-answers-it", "/body/data/id", "/request/path/account_id"],
      ["sandbox-account-delete-answers-it", "/body/data/id", "/request/path/account_id"],
      ["curated-category-read-answers-it", "/body/data/id", "/request/path/curated_category_id"],
      ["line-item-update-answers-it", "/body/data/id", "/request/path/line_item_id"],
      ["line-item-delete-answers-it", "/body/data/id", "/request/path/line_item_id"],
      ["line-item-curated-category-create-links-the-line-item", "/body/data/line_item_id", "/request/query/line_item_id"],
      ["line-item-curated-category-create-links-the-category", "/body/data/curated_category_id", "/request/query/curated_category_id"],
      ["line-item-curated-category-read-answers-it", "/body/data/id", "/request/path/line_item_curated_category_id"],
      ["line-item-curated-category-update-answers-it", "/body/data/id", "/request/path/line_item_curated_category_id"],
      ["line-item-curated-category-delete-answers-it", "/body/data/id", "/request/path/line_item_curated_category_id"],
      ["advertiser-post-by-the-advertiser", "/body/data/user/id_str", "/request/query/as_user_id"],
      ["advertiser-post-rename-answers-the-post", "/body/data/id_str", "/request/path/post_id"],
      ["advertiser-post-rename-sets-the-name", "/body/data/name", "/request/query/name"],
    ] as const
  ).map(([rule, left, right]) => equalsRow(rule, left, right)),
  ...[
    "account-media-delete-answers-deleted",
    "legacy-card-delete-answers-deleted",
    "media-library-delete-answers-deleted",
    "sandbox-account-delete-answers-deleted",
    "line-item-delete-answers-deleted",
    "line-item-curated-category-delete-answers-deleted",
  ].map(deletedRow),
  ...[
    "account-media-list-live-unless-with-deleted",
    "cards-list-live-unless-with-deleted",
    "card-read-live-unless-with-deleted",
    "poll-cards-list-live-unless-with-deleted",
    "video-conversation-cards-list-live-unless-with-deleted",
    "accounts-list-live-unless-with-deleted",
    "account-apps-list-live-unless-with-deleted",
    "line-item-curated-categories-list-live-unless-with-deleted",
  ].map((rule) => liveUnlessAskedRow(rule, true)),
  ...[
    "account-media-read-live-unless-with-deleted",
    "poll-card-read-live-unless-with-deleted",
    "video-conversation-card-read-live-unless-with-deleted",
    "account-read-live-unless-with-deleted",
    "line-item-curated-category-read-live-unless-with-deleted",
  ].map((rule) => liveUnlessAskedRow(rule, false)),
  // `each` on equals, compare and offset: every item is judged, against its own members and the exchange (`#/…`).
  {
    rule: "permissions-list-of-the-path-audience",
    keeps: holding({ "/request/path/tailored_audience_id": "155", "/body/data": [{ tailored_audience_id: "155" }, { tailored_audience_id: "155" }] }),
    breaks: holding({ "/request/path/tailored_audience_id": "155", "/body/data": [{ tailored_audience_id: "155" }, { tailored_audience_id: "156" }] }),
  },
  ...(
    [
      ["do-not-reach-request-names-the-path-list", "do_not_reach_list_id"],
      ["do-not-reach-request-names-the-path-account", "account_id"],
    ] as const
  ).map(([rule, member]) => ({
    rule,
    keeps: holding({ [`/request/path/${member}`]: "44", "/body/request": [{ params: { [member]: "44" } }, { params: { [member]: "44" } }] }),
    breaks: holding({ [`/request/path/${member}`]: "44", "/body/request": [{ params: { [member]: "44" } }, { params: { [member]: "45" } }] }),
  })),
  {
    rule: "history-entries-from-start-time",
    keeps: holding({ "/request/query/start_time": "2026-01-01T10:00:00Z", "/body/data": [{ change_time: "2026-01-01T10:00:00Z" }, { change_time: "2026-01-01T11:30:00Z" }] }),
    breaks: holding({ "/request/query/start_time": "2026-01-01T10:00:00Z", "/body/data": [{ change_time: "2026-01-01T10:30:00Z" }, { change_time: "2026-01-01T09:59:59Z" }] }),
  },
  {
    rule: "history-entries-until-end-time",
    keeps: holding({ "/request/query/end_time": "2026-01-01T12:00:00Z", "/body/data": [{ change_time: "2026-01-01T12:00:00Z" }] }),
    breaks: holding({ "/request/query/end_time": "2026-01-01T12:00:00Z", "/body/data": [{ change_time: "2026-01-01T11:00:00Z" }, { change_time: "2026-01-01T12:00:01Z" }] }),
  },
  {
    rule: "poll-cards-list-end-is-start-plus-duration",
    keeps: holding({ "/body/data": [{ start_time: "2026-01-01T10:00:00Z", duration_in_minutes: 30, end_time: "2026-01-01T10:30:00Z" }] }),
    breaks: holding({
      "/body/data": [
        { start_time: "2026-01-01T10:00:00Z", duration_in_minutes: 30, end_time: "2026-01-01T10:30:00Z" },
        { start_time: "2026-01-01T10:00:00Z", duration_in_minutes: 60, end_time: "2026-01-01T10:30:00Z" },
      ],
    }),
  },
  ...["cards-list-uri-names-each-card", "poll-cards-list-uri-names-each-card", "video-conversation-cards-list-uri-names-each-card"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": [{ id: "17", card_uri: "card://17" }] }),
    breaks: holding({
      "/body/data": [
        { id: "17", card_uri: "card://17" },
        { id: "18", card_uri: "card://17" },
      ],
    }),
  })),
  ...[
    "legacy-card-uri-names-the-card",
    "poll-card-uri-names-the-card",
    "poll-card-read-uri-names-the-card",
    "video-conversation-card-uri-names-the-card",
    "video-conversation-card-read-uri-names-the-card",
  ].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": { id: "17", card_uri: "card://17" } }),
    breaks: holding({ "/body/data": { id: "17", card_uri: "card://18" } }),
  })),
  {
    rule: "poll-without-media-is-text-poll",
    keeps: holding({ "/request/query/media_key": "13_1", "/body/data/card_type": "VIDEO_POLLS" }),
    breaks: holding({ "/request/query/name": "p", "/body/data/card_type": "VIDEO_POLLS" }),
  },
  {
    rule: "poll-opens-no-earlier-than-creation",
    keeps: holding({ "/body/data": { start_time: "2025-05-01T12:00:00.000Z", created_at: "2025-05-01T12:00:00Z" } }),
    // Opened a day before it existed.
    breaks: holding({ "/body/data": { start_time: "2025-04-30T12:00:00Z", created_at: "2025-05-01T12:00:00Z" } }),
  },
  {
    rule: "poll-opens-no-later-than-creation",
    keeps: holding({ "/body/data": { start_time: "2025-05-01T12:00:00Z", created_at: "2025-05-01T12:00:00.000Z" } }),
    // Opened at its first use in a post, a day after creation.
    breaks: holding({ "/body/data": { start_time: "2025-05-02T12:00:00Z", created_at: "2025-05-01T12:00:00Z" } }),
  },
  {
    rule: "advertiser-post-creation-omits-conversation-settings",
    keeps: holding({ "/body/data": { id_str: "1", text: "t" } }),
    breaks: holding({ "/body/data": { id_str: "1", text: "t", conversation_settings: "EVERYONE" } }),
  },
  {
    rule: "advertiser-post-trimmed-user",
    keeps: holding({ "/request/query/trim_user": true, "/body/data/user": { id: 2244994945, id_str: "2244994945" } }),
    breaks: holding({ "/request/query/trim_user": true, "/body/data/user": { id: 2244994945, id_str: "2244994945", screen_name: "acme" } }),
  },
  {
    rule: "product-delete-success-has-no-message",
    keeps: holding({
      "/body/data/delete_products": [
        { product_key: "1", failed_product_key: null, message: null },
        { product_key: "2", failed_product_key: "2", message: "Product not found" },
      ],
    }),
    breaks: holding({ "/body/data/delete_products": [{ product_key: "1", failed_product_key: null, message: "Product not found" }] }),
  },
  ...["poll-end-is-start-plus-duration", "poll-read-end-is-start-plus-duration"].map((rule) => ({
    rule,
    keeps: exchange({}, { data: { start_time: "2025-05-01T12:00:00Z", duration_in_minutes: 1440, end_time: "2025-05-02T12:00:00.000Z" } }),
    // Minutes added as seconds: the end 24 minutes after the start instead of a day.
    breaks: exchange({}, { data: { start_time: "2025-05-01T12:00:00Z", duration_in_minutes: 1440, end_time: "2025-05-01T12:24:00Z" } }),
  })),
  {
    rule: "products-response-one-per-product",
    keeps: exchange({ body: { products: [{ id: "a" }, { id: "b" }] } }, { data: { products_response: [{ id: "a" }, { id: "b" }] } }),
    breaks: exchange({ body: { products: [{ id: "a" }, { id: "b" }] } }, { data: { products_response: [{ id: "a" }] } }),
  },
  {
    rule: "products-echo-catalog",
    keeps: exchange({ path: { product_catalog_id: "123" } }, { request: { params: { product_catalog_id: "123" } } }),
    breaks: exchange({ path: { product_catalog_id: "123" } }, { request: { params: { product_catalog_id: "999" } } }),
  },
  {
    rule: "membership-counts-equal",
    keeps: exchange({}, { data: { success_count: 3, total_count: 3 } }),
    breaks: exchange({}, { data: { success_count: 2, total_count: 3 } }),
  },
  {
    rule: "membership-echo-audience",
    keeps: exchange({ path: { custom_audience_id: "1552660002" } }, { request: { params: { custom_audience_id: "1552660002" } } }),
    breaks: exchange({ path: { custom_audience_id: "1552660002" } }, { request: { params: { custom_audience_id: "1" } } }),
  },
  {
    rule: "do-not-reach-counts-per-operation",
    keeps: exchange(
      { body: [{ operation_type: "Update" }, { operation_type: "Delete" }] },
      {
        data: [
          { success_count: 1, total_count: 1 },
          { success_count: 2, total_count: 2 },
        ],
      },
    ),
    breaks: exchange({ body: [{ operation_type: "Update" }, { operation_type: "Delete" }] }, { data: [{ success_count: 1, total_count: 1 }] }),
  },
  {
    rule: "default-post-fields",
    keeps: exchange({ query: { ids: ["20"] } }, { data: [{ id: "20", text: "hello" }] }),
    breaks: exchange({ query: { ids: ["20"] } }, { data: [{ id: "20", text: "hello", author_id: "2244994945" }] }),
  },
  {
    rule: "includes-only-with-expansions",
    keeps: exchange({ query: { ids: ["20"], expansions: ["author_id"] } }, { data: [{ id: "20", text: "x" }], includes: { users: [] } }),
    breaks: exchange({ query: { ids: ["20"] } }, { data: [{ id: "20", text: "x" }], includes: { users: [] } }),
  },
  {
    rule: "included-media-defaults",
    keeps: exchange({ query: { expansions: ["attachments.media_keys"] } }, { includes: { media: [{ media_key: "3_1", type: "video" }] } }),
    breaks: exchange({ query: { expansions: ["attachments.media_keys"] } }, { includes: { media: [{ media_key: "3_1" }] } }),
  },
  {
    rule: "card-uri-names-the-card",
    keeps: exchange({}, { data: { id: "17", card_uri: "card://17" } }),
    breaks: exchange({}, { data: { id: "17", card_uri: "card://18" } }),
  },
  {
    rule: "card-uri-names-each-card",
    keeps: exchange({}, { data: [{ id: "17", card_uri: "card://17" }] }),
    breaks: exchange(
      {},
      {
        data: [
          { id: "17", card_uri: "card://17" },
          { id: "18", card_uri: "card://17" },
        ],
      },
    ),
  },
  {
    rule: "card-type-follows-components",
    keeps: exchange(
      {
        body: {
          name: "c",
          components: [
            { type: "MEDIA", media_key: "3_1" },
            { type: "DETAILS", title: "t", destination: { type: "WEBSITE", url: "https://x.example" } },
          ],
        },
      },
      { data: { id: "1", card_type: "IMAGE_WEBSITE" } },
    ),
    breaks: exchange(
      {
        body: {
          name: "c",
          components: [
            { type: "MEDIA", media_key: "3_1" },
            { type: "BUTTON", label: { type: "ENUM", value: "SHOP" }, destination: { type: "APP", country_code: "US" } },
          ],
        },
      },
      { data: { id: "1", card_type: "IMAGE_WEBSITE" } },
    ),
  },
  {
    rule: "keyword-echo-holds-the-range",
    keeps: exchange({ query: { granularity: "DAY" } }, { request: { params: { start_time: "a", end_time: "b", granularity: "DAY", keywords: ["x"] } } }),
    breaks: exchange({ query: { granularity: "DAY" } }, { request: { params: { start_time: "a", granularity: "DAY", keywords: ["x"] } } }),
  },
  {
    rule: "targeting-active-by-default",
    keeps: exchange({ query: { with_active: false } }, { data: [{ campaign_id: "1", line_items: [{ id: "2", servable: false }] }] }),
    breaks: exchange({ query: {} }, { data: [{ campaign_id: "1", line_items: [{ id: "2", servable: false }] }] }),
  },
  {
    rule: "cards-without-legacy-by-default",
    keeps: exchange({ query: { include_legacy_cards: true } }, { data: [{ id: "1", card_type: "IMAGE_CONVERSATION" }] }),
    breaks: exchange({ query: {} }, { data: [{ id: "1", card_type: "IMAGE_CONVERSATION" }] }),
  },
  {
    rule: "do-not-reach-request-order",
    keeps: exchange({ body: [{ operation_type: "Update" }, { operation_type: "Delete" }] }, { request: [{ operation_type: "Update" }, { operation_type: "Delete" }] }),
    breaks: exchange({ body: [{ operation_type: "Update" }, { operation_type: "Delete" }] }, { request: [{ operation_type: "Delete" }, { operation_type: "Update" }] }),
  },
  {
    rule: "manual-set-done",
    keeps: exchange({ body: { type: "MANUAL", name: "s", product_keys: ["a"] } }, { data: { processing_status: "DONE", filters: [] } }),
    breaks: exchange({ body: { type: "MANUAL", name: "s", product_keys: ["a"] } }, { data: { processing_status: "PROCESSING", filters: [] } }),
  },
];

const plans: readonly [ConformancePlan, unknown][] = [
  [core, coreDoc()],
  [audiences, audiencesDoc()],
  [campaigns, campaignsDoc()],
];
const planned = new Map<string, ResponseRule>(plans.flatMap(([p]) => p.operations.flatMap((o) => (o.responseRules ?? []).map((r) => [r.id, r] as const))));
/** Each rule's package mock document, where its schema's `$ref`s resolve (as the suite passes it). */
const rootOf = new Map<string, unknown>(plans.flatMap(([p, root]) => p.operations.flatMap((o) => (o.responseRules ?? []).map((r) => [r.id, root] as const))));

describe("response rules of the contracts", () => {
  it.each(ROWS)("$rule: an answer that keeps it passes, one that breaks it fails with its message", ({ rule, keeps, breaks }) => {
    const r = planned.get(rule);
    expect(r, `${rule} is not in a generated plan`).toBeDefined();
    const rules = [r as ResponseRule];
    expect(brokenRules(rules, keeps, rootOf.get(rule))).toEqual([]);
    const broken = brokenRules(rules, breaks, rootOf.get(rule));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toContain(`${rule}: ${(r as ResponseRule).message}`);
  });

  it("holds vacuously while a field it names is absent, and only for the status it is declared on", () => {
    for (const row of ROWS) {
      const r = planned.get(row.rule) as ResponseRule;
      expect(brokenRules([r], exchange({}, {}), rootOf.get(row.rule)), row.rule).toEqual([]);
      expect(brokenRules([r], { ...row.breaks, status: 404 }, rootOf.get(row.rule))).toEqual([]);
    }
  });

  it("has a row for every response rule of the generated plans, and the ads contracts' rules are all planned", () => {
    expect(ROWS.map((r) => r.rule).sort()).toEqual([...planned.keys()].sort());
    const declared = (["ads-audiences.yaml", "ads-campaigns.yaml"] as const)
      .flatMap((s) => declaredRules(s))
      .filter((r) => r.onResponse)
      .map((r) => r.id);
    expect(declared.length).toBeGreaterThan(0);
    for (const id of declared) expect(planned.has(id), id).toBe(true);
  });
});
