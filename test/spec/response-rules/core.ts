/**
 * Rows for response rules of spec/core.yaml kept in their own file (one per contract, so that work on
 * one contract's rules never touches another's); the test joins them with the rows beside it.
 */
import { exchange, type Row } from "../response-rules-support.js";

const ids = { ids: ["20", "1999999999999999999"] };
const notFound = (over: Record<string, unknown>) => ({
  type: "https://api.example.com/2/problems/resource-not-found",
  title: "Not Found Error",
  parameter: "ids",
  value: "1999999999999999999",
  resource_id: "1999999999999999999",
  resource_type: "post",
  ...over,
});
const metrics = { repost_count: 1, reply_count: 2, like_count: 3, quote_count: 4 };
const userMetrics = { followers_count: 1, following_count: 2, post_count: 3, listed_count: 4 };

export const rows: Row[] = [
  {
    rule: "posts-carry-no-removed-source",
    keeps: exchange({ query: { ids: ["20"], "post.fields": ["source", "created_at"] } }, { data: [{ id: "20", text: "x", created_at: "2026-01-01T00:00:00Z" }] }),
    breaks: exchange(
      { query: { ids: ["20"], "post.fields": ["source"], expansions: ["referenced_posts.id"] } },
      { data: [{ id: "20", text: "x" }], includes: { posts: [{ id: "19", text: "y", source: "Web App" }] } },
    ),
  },
  {
    rule: "posts-carry-no-edit-options",
    keeps: exchange({ query: { ids: ["20"] } }, { data: [{ id: "20", text: "x" }] }),
    breaks: exchange({ query: { ids: ["20"], "post.fields": ["edit_options"] } }, { data: [{ id: "20", text: "x", edit_options: { previous_post_id: "19" } }] }),
  },
  {
    rule: "unknown-lookup-id-is-a-post",
    keeps: exchange({ query: ids }, { data: [{ id: "20", text: "x" }], errors: [notFound({})] }),
    breaks: exchange({ query: ids }, { data: [{ id: "20", text: "x" }], errors: [notFound({ resource_type: "user" })] }),
  },
  {
    rule: "referenced-posts-name-type-and-id",
    keeps: exchange({ query: { ids: ["20"], "post.fields": ["referenced_posts"] } }, { data: [{ id: "20", text: "x", referenced_posts: [{ type: "replied_to", id: "19" }] }] }),
    breaks: exchange({ query: { ids: ["20"], "post.fields": ["referenced_posts"] } }, { data: [{ id: "20", text: "x", referenced_posts: [{ id: "19" }] }] }),
  },
  {
    rule: "post-public-metrics-counts",
    keeps: exchange({ query: { ids: ["20"], "post.fields": ["public_metrics"] } }, { data: [{ id: "20", text: "x", public_metrics: { ...metrics, impression_count: 9 } }] }),
    breaks: exchange({ query: { ids: ["20"], "post.fields": ["public_metrics"] } }, { data: [{ id: "20", text: "x", public_metrics: { repost_count: 1, reply_count: 2, like_count: 3 } }] }),
  },
  {
    rule: "user-public-metrics-counts",
    keeps: exchange({ query: { ids: ["20"], expansions: ["author_id"], "user.fields": ["public_metrics"] } }, { data: [{ id: "20", text: "x" }], includes: { users: [{ id: "7", public_metrics: userMetrics }] } }),
    breaks: exchange(
      { query: { ids: ["20"], expansions: ["author_id"], "user.fields": ["public_metrics"] } },
      { data: [{ id: "20", text: "x" }], includes: { users: [{ id: "7", public_metrics: { followers_count: 1, following_count: 2, listed_count: 4 } }] } },
    ),
  },
  {
    rule: "media-public-metrics-view-count",
    keeps: exchange(
      { query: { ids: ["20"], expansions: ["attachments.media_keys"], "media.fields": ["public_metrics"] } },
      { data: [{ id: "20", text: "x" }], includes: { media: [{ media_key: "7_20", type: "video", public_metrics: { view_count: 5 } }] } },
    ),
    breaks: exchange(
      { query: { ids: ["20"], expansions: ["attachments.media_keys"], "media.fields": ["public_metrics"] } },
      { data: [{ id: "20", text: "x" }], includes: { media: [{ media_key: "7_20", type: "video", public_metrics: {} }] } },
    ),
  },
  {
    rule: "post-entities-carry-their-spans",
    keeps: exchange(
      { query: { ids: ["20"], "post.fields": ["entities"] } },
      { data: [{ id: "20", text: "hi @dev #tag", entities: { mentions: [{ start: 3, end: 7, username: "dev" }], hashtags: [{ start: 8, end: 12, tag: "tag" }] } }] },
    ),
    breaks: exchange(
      { query: { ids: ["20"], "post.fields": ["entities"], expansions: ["referenced_posts.id"] } },
      { data: [{ id: "20", text: "x" }], includes: { posts: [{ id: "19", text: "#tag", entities: { hashtags: [{ tag: "tag" }] } }] } },
    ),
  },
  {
    rule: "context-annotations-name-domain-and-entity",
    keeps: exchange(
      { query: { ids: ["20"], "post.fields": ["context_annotations"] } },
      { data: [{ id: "20", text: "x", context_annotations: [{ domain: { id: "46", name: "Business Taxonomy" }, entity: { id: "1557", name: "Technology" } }] }] },
    ),
    breaks: exchange(
      { query: { ids: ["20"], "post.fields": ["context_annotations"] } },
      { data: [{ id: "20", text: "x", context_annotations: [{ domain: { id: "46", name: "Business Taxonomy" }, entity: { name: "Technology" } }] }] },
    ),
  },
  {
    rule: "primary-posts-default-fields-whatever-expansions",
    keeps: exchange({ query: { ids: ["20"], expansions: ["author_id"] } }, { data: [{ id: "20", text: "x" }], includes: { users: [{ id: "7" }] } }),
    breaks: exchange({ query: { ids: ["20"], expansions: ["author_id"] } }, { data: [{ id: "20", text: "x", author_id: "7" }], includes: { users: [{ id: "7" }] } }),
  },
  {
    rule: "post-fields-only-as-asked",
    keeps: exchange({ query: { ids: ["20"], "post.fields": ["created_at"], expansions: ["referenced_posts.id"] } }, { data: [{ id: "20", text: "x", created_at: "2026-01-01T00:00:00Z" }], includes: { posts: [{ id: "19", text: "y", created_at: "2025-12-31T00:00:00Z" }] } }),
    breaks: exchange({ query: { ids: ["20"], "post.fields": ["created_at"], expansions: ["referenced_posts.id"] } }, { data: [{ id: "20", text: "x", created_at: "2026-01-01T00:00:00Z" }], includes: { posts: [{ id: "19", text: "y", created_at: "2025-12-31T00:00:00Z", lang: "en" }] } }),
  },
  {
    rule: "media-fields-only-as-asked",
    keeps: exchange(
      { query: { ids: ["20"], expansions: ["attachments.media_keys"], "media.fields": ["duration_ms"] } },
      { data: [{ id: "20", text: "x" }], includes: { media: [{ media_key: "7_20", type: "video", duration_ms: 4000 }] } },
    ),
    breaks: exchange(
      { query: { ids: ["20"], expansions: ["attachments.media_keys"], "media.fields": ["duration_ms"] } },
      { data: [{ id: "20", text: "x" }], includes: { media: [{ media_key: "7_20", type: "video", duration_ms: 4000, public_metrics: { view_count: 5 } }] } },
    ),
  },
  {
    rule: "user-entities-carry-their-spans",
    keeps: exchange(
      { query: { ids: ["20"], expansions: ["author_id"], "user.fields": ["entities"] } },
      { data: [{ id: "20", text: "x" }], includes: { users: [{ id: "7", entities: { url: { urls: [{ start: 0, end: 23, url: "https://t.example/a" }] }, description: { hashtags: [{ start: 0, end: 4, tag: "dev" }], mentions: [{ start: 5, end: 9, username: "api" }] } } }] } },
    ),
    breaks: exchange(
      { query: { ids: ["20"], expansions: ["author_id"], "user.fields": ["entities"] } },
      { data: [{ id: "20", text: "x" }], includes: { users: [{ id: "7", entities: { description: { mentions: [{ username: "api" }] } } }] } },
    ),
  },
];
