/**
 * Rows for response rules of spec/ads-campaigns.yaml kept in their own file (one per contract, so that work on
 * one contract's rules never touches another's); the test joins them with the rows beside it.
 */
import { equalsRow, exchange, holding, type Row } from "../response-rules-support.js";

const websiteCard = (media: { type: string; [k: string]: unknown }) => ({
  name: "c",
  components: [media, { type: "DETAILS", title: "t", destination: { type: "WEBSITE", url: "https://x.example" } }],
});

export const rows: Row[] = [
  {
    rule: "card-single-media-not-carousel",
    keeps: exchange({ body: websiteCard({ type: "MEDIA", media_key: "3_1" }) }, { data: { id: "1", card_type: "IMAGE_WEBSITE" } }),
    // One image answered as a carousel.
    breaks: exchange({ body: websiteCard({ type: "MEDIA", media_key: "3_1" }) }, { data: { id: "1", card_type: "IMAGE_CAROUSEL_WEBSITE" } }),
  },
  equalsRow("advertiser-post-creation-keeps-the-name", "/body/data/name", "/request/query/name", "Summer sale post", "Summer sale"),
  equalsRow("advertiser-post-rename-post-id-is-the-path-post", "/body/data/post_id", "/request/path/post_id", "1750000000000000001", "1750000000000000002"),
  equalsRow("media-library-create-answers-the-key", "/body/data/media_key", "/request/query/media_key", "3_1730000000000000003", "3_1730000000000000004"),
  {
    rule: "history-entries-of-the-entity-type",
    keeps: holding({ "/request/query/entity_type": "LINE_ITEM", "/body/data": [{ entity: "LINE_ITEM" }, { entity: "LINE_ITEM" }] }),
    breaks: holding({ "/request/query/entity_type": "LINE_ITEM", "/body/data": [{ entity: "LINE_ITEM" }, { entity: "CAMPAIGN" }] }),
  },
  {
    rule: "history-entries-of-the-entity-id",
    keeps: holding({ "/request/query/entity_id": "18", "/body/data": [{ entity_id: "18" }, { entity_id: "18" }] }),
    breaks: holding({ "/request/query/entity_id": "18", "/body/data": [{ entity_id: "18" }, { entity_id: "19" }] }),
  },
  ...["line-item-update-daily-at-most-total", "line-item-delete-daily-at-most-total"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": { id: "18", daily_budget_amount_local_micro: 50000000, total_budget_amount_local_micro: 50000000 } }),
    breaks: holding({ "/body/data": { id: "18", daily_budget_amount_local_micro: 50000001, total_budget_amount_local_micro: 50000000 } }),
  })),
  {
    rule: "legacy-card-delete-type-is-the-path-type",
    keeps: holding({ "/request/path/card_type": "text_polls", "/body/data": { id: "7", card_type: "TEXT_POLLS", deleted: true } }),
    // A poll card deleted through the video conversation path.
    breaks: holding({ "/request/path/card_type": "video_conversation", "/body/data": { id: "7", card_type: "TEXT_POLLS", deleted: true } }),
  },
  {
    rule: "history-entries-by-the-user-asked",
    keeps: holding({ "/request/query/user_id": "2244994945", "/body/data": [{ change_by: { user_id: "2244994945" } }, { change_by: { user_id: "2244994945" } }] }),
    // An entry of another user answered to a request naming one user.
    breaks: holding({ "/request/query/user_id": "2244994945", "/body/data": [{ change_by: { user_id: "2244994945" } }, { change_by: { user_id: "783214" } }] }),
  },
  equalsRow("line-item-curated-category-update-links-the-line-item", "/body/data/line_item_id", "/request/query/line_item_id", "1800000000000000001", "1800000000000000002"),
  equalsRow("line-item-curated-category-update-links-the-category", "/body/data/curated_category_id", "/request/query/curated_category_id", "1790000000000000002", "1790000000000000003"),
  ...["poll-read-opens-no-earlier-than-creation", "poll-read-opens-no-later-than-creation"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": { id: "7", created_at: "2026-01-05T10:00:00Z", start_time: "2026-01-05T10:00:00Z" } }),
    // The earlier rule breaks on a start before creation, the later one on a start moved to the first use in a post.
    breaks: holding({ "/body/data": { id: "7", created_at: "2026-01-05T10:00:00Z", start_time: rule.includes("earlier") ? "2026-01-05T09:59:00Z" : "2026-01-06T12:00:00Z" } }),
  })),
  ...["poll-cards-list-open-no-earlier-than-creation", "poll-cards-list-open-no-later-than-creation"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": [{ id: "7", created_at: "2026-01-05T10:00:00Z", start_time: "2026-01-05T10:00:00Z" }, { id: "8", created_at: "2026-01-06T10:00:00Z", start_time: "2026-01-06T10:00:00Z" }] }),
    breaks: holding({
      "/body/data": [
        { id: "7", created_at: "2026-01-05T10:00:00Z", start_time: "2026-01-05T10:00:00Z" },
        { id: "8", created_at: "2026-01-06T10:00:00Z", start_time: rule.includes("earlier") ? "2026-01-06T09:00:00Z" : "2026-01-07T10:00:00Z" },
      ],
    }),
  })),
  // Without count a page holds at most the stated default; with count the default does not apply.
  ...(
    [
      ["account-media-default-page-size", 200],
      ["cards-default-page-size", 100],
      ["media-library-default-page-size", 20],
      ["poll-cards-default-page-size", 200],
      ["video-conversation-cards-default-page-size", 200],
      ["accounts-default-page-size", 200],
      ["account-apps-default-page-size", 200],
      ["history-default-page-size", 200],
      ["line-item-curated-categories-default-page-size", 200],
    ] as const
  ).map(([rule, size]) => ({
    rule,
    keeps: holding({ "/body/data": Array.from({ length: size }, (_, i) => ({ id: String(i + 1) })) }),
    breaks: holding({ "/body/data": Array.from({ length: size + 1 }, (_, i) => ({ id: String(i + 1) })) }),
  })),
];
