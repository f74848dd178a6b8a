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
];
