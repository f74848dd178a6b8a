/**
 * The seeded dataset: enough of every resource that each read answers out of the box, and enough
 * rows that paging has several pages. Built from one seeded generator, so a seed always gives the
 * same data and ids. Values are hand-picked vocabularies combined at random; when the generated
 * packages gain `./mocks` factories this is the one module to switch over.
 */
import type { Product } from "@devplatform/ads-audiences/types";
import type {
  Account,
  AccountMedia,
  Card,
  CardComponent,
  CreativeType,
  IndustryType,
  LineItem,
  MediaLibraryObject,
  PollCard,
  VideoConversationCard,
} from "@devplatform/ads-campaigns/types";
import { openObject } from "./open-object.js";
import type { Random } from "./random.js";
import type { MockState } from "./store/state.js";
import type { MockUser, Post } from "./store/records.js";
import { DAY, HOUR, MINUTE, SEED_EPOCH, iso } from "./time.js";

/** Curated category id used by the examples of spec/ads-campaigns.yaml. */
const CONTRACT_EXAMPLE_CURATED_CATEGORY = "1790000000000000001";

/** Line item ids used by the examples of spec/ads-campaigns.yaml. */
/** Legacy cards have no list operation either: the main account's first one carries the example's id. */
const CONTRACT_EXAMPLE_LEGACY_CARD = "1720000000000000001";
const CONTRACT_EXAMPLE_LINE_ITEMS: readonly string[] = ["1800000000000000001", "1800000000000000002", "1800000000000000003"];

const FIRST = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Dennis", "Frances", "Ken", "Radia"];
const LAST = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Turing", "Liskov", "Ritchie", "Allen", "Thompson", "Perlman"];
const WORDS = ["summer", "launch", "trail", "coffee", "garden", "studio", "harbor", "maple", "orbit", "canvas", "ember", "meadow", "pixel", "river", "atlas"];
const BRANDS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"];
const COLORS = ["sand", "navy", "olive", "crimson", "charcoal", "ivory"];
const SIZES = ["S", "M", "L", "XL"];
const TIMEZONES = ["America/Los_Angeles", "America/New_York", "Europe/Berlin", "Asia/Tokyo"];
const INDUSTRIES: readonly IndustryType[] = ["RETAIL", "TECHNOLOGY", "TRAVEL", "MEDIA", "RESTAURANT", "ONLINE_SERVICES"];
const CREATIVE_TYPES: readonly CreativeType[] = ["BANNER", "INTERSTITIAL", "MEDIUM_RECTANGLE", "PREROLL", "BANNER_TABLET", "INTERSTITIAL_LANDSCAPE"];

/** Media key prefixes: the platform's media categories, used to tell images, GIFs and videos apart. */
export const MEDIA_PREFIX = { image: 3, video: 7, promoVideo: 13, gif: 16 } as const;

const title = (rng: Random, n: number): string => {
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** A time after the seed epoch, on a whole minute. */
const when = (rng: Random, maxDays: number): number => SEED_EPOCH + rng.int(0, maxDays * 24 * 60) * MINUTE;

export function seedState(state: MockState, rng: Random): void {
  const users = seedUsers(state, rng.fork("users"));
  seedPosts(state, rng.fork("posts"), users);
  const accountIds = seedAccounts(state, rng.fork("accounts"), users);
  const main = accountIds[0] as string;
  for (const accountId of accountIds) seedCreatives(state, rng.fork(`creatives:${accountId}`), accountId, accountId === main ? 1 : 0.25);
  seedCampaigns(state, rng.fork("campaigns"), accountIds);
  seedCatalog(state, rng.fork("catalog"), state.defaultUserId);
  seedAudiences(state, rng.fork("audiences"), accountIds);
  seedForeignCatalog(state, users);
}

/**
 * The catalog of another user (one catalog per user, document 2): one the authenticated user must
 * not reach. Seeded last, so the ids of everything seeded before stay as they were.
 */
function seedForeignCatalog(state: MockState, users: readonly MockUser[]): void {
  const owner = users.find((u) => u.id !== state.defaultUserId);
  if (!owner) return;
  const catalogId = state.ids.numeric("catalog", 8);
  state.catalogs.set(catalogId, { data: { id: catalogId, name: "Another merchant's catalog" }, userId: owner.id });
}

function seedUsers(state: MockState, rng: Random): MockUser[] {
  const out: MockUser[] = [];
  for (let i = 0; i < 6; i++) {
    // The first user is the one the fixed credentials act for; its id was taken when the state was made.
    const id = i === 0 ? state.defaultUserId : state.ids.user();
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const user: MockUser = {
      id,
      name: i === 0 ? "Mock Advertiser" : `${first} ${last}`,
      username: i === 0 ? "mock_advertiser" : `${first.toLowerCase()}_${last.toLowerCase()}${i}`,
      description: `${title(rng, 4)}.`,
      created_at: iso(when(rng, 30) - 400 * DAY),
      protected: false,
      verified: rng.bool(0.3),
      verified_type: rng.pick(["blue", "business", "none"] as const),
      public_metrics: { followers_count: rng.int(0, 50_000), following_count: rng.int(0, 2_000), post_count: rng.int(10, 9_000), listed_count: rng.int(0, 300) },
      profile_image_url: `https://images.example.com/profile/${id}.jpg`,
    };
    state.users.set(id, user);
    out.push(user);
  }
  return out;
}

function seedPosts(state: MockState, rng: Random, users: readonly MockUser[]): void {
  const made: Post[] = [];
  for (let i = 0; i < 24; i++) {
    const author = rng.pick(users);
    const id = state.ids.numeric("post", 0);
    const post: Post = {
      id,
      text: `${title(rng, rng.int(3, 9))} #${rng.pick(WORDS)}`,
      author_id: author.id,
      created_at: iso(when(rng, 60)),
      conversation_id: id,
      lang: "en",
      possibly_sensitive: false,
      paid_partnership: rng.bool(0.1),
      public_metrics: { repost_count: rng.int(0, 90), reply_count: rng.int(0, 40), like_count: rng.int(0, 900), quote_count: rng.int(0, 20), impression_count: rng.int(100, 90_000) },
    };
    if (rng.bool(0.35)) {
      const key = `${MEDIA_PREFIX.video}_${id}`;
      post.attachments = { media_keys: [key] };
      state.media.set(key, { media_key: key, type: "video", duration_ms: rng.int(5_000, 120_000), public_metrics: { view_count: rng.int(10, 50_000) } });
    }
    const parent = made.length > 0 && rng.bool(0.3) ? rng.pick(made) : undefined;
    if (parent) {
      post.referenced_posts = [{ type: "replied_to", id: parent.id }];
      post.conversation_id = parent.conversation_id ?? parent.id;
      if (parent.author_id !== undefined) post.in_reply_to_user_id = parent.author_id;
    }
    state.posts.set(id, post);
    made.push(post);
  }
}

function seedAccounts(state: MockState, rng: Random, users: readonly MockUser[]): string[] {
  const businesses = [state.ids.numeric("business", 4), state.ids.numeric("business", 4)];
  const plan: { name: string; business: number; owner: MockUser }[] = [
    { name: "Mock Outdoor", business: 0, owner: users[0] as MockUser },
    { name: "Mock Outdoor EU", business: 0, owner: users[0] as MockUser },
    { name: "Mock Agency Client", business: 1, owner: users[0] as MockUser },
    { name: "Someone Else's Shop", business: 1, owner: users[1] as MockUser },
  ];
  const ids: string[] = [];
  for (const p of plan) {
    const id = state.ids.numeric("account", 3);
    const created = when(rng, 10) - 200 * DAY;
    const data: Account = {
      id,
      name: p.name,
      business_name: `${p.name} Inc.`,
      business_id: businesses[p.business] as string,
      timezone: rng.pick(TIMEZONES),
      timezone_switch_at: iso(created),
      industry_type: rng.pick(INDUSTRIES),
      approval_status: "ACCEPTED",
      created_at: iso(created),
      updated_at: iso(created + rng.int(1, 90) * DAY),
      deleted: false,
    };
    const features = new Set<string>(["REACH_FREQUENCY_CAP", "CITY_TARGETING"]);
    // The first account may run media polls and share audiences beyond its business.
    if (ids.length === 0) for (const f of ["PROMOTED_MEDIA_POLLS", "SHARE_AUDIENCE_OUTSIDE_BUSINESS"]) features.add(f);
    state.accounts.set(id, { data, userIds: [p.owner.id], sandbox: false, features });
    ids.push(id);
  }
  return ids;
}

function mediaObject(state: MockState, rng: Random, kind: "image" | "gif" | "video" | "promo", created: number): MediaLibraryObject {
  const prefix = kind === "image" ? MEDIA_PREFIX.image : kind === "gif" ? MEDIA_PREFIX.gif : kind === "video" ? MEDIA_PREFIX.video : MEDIA_PREFIX.promoVideo;
  const key = state.ids.mediaKey(prefix);
  const id = key.split("_")[1] as string;
  const name = rng.bool(0.8) ? title(rng, 2) : null;
  const base = {
    media_key: key,
    media_status: "TRANSCODE_COMPLETED",
    name,
    posted: rng.bool(0.4),
    created_at: iso(created),
    updated_at: iso(created + rng.int(0, 30) * MINUTE),
    deleted: false,
  };
  if (kind === "image") {
    return { ...base, media_type: "IMAGE", media_category: "POST_IMAGE", media_url: `https://media.example.com/ads/${id}.jpg`, file_name: `${id}.jpg`, aspect_ratio: rng.pick(["1.91:1", "1:1", "16:9"]) };
  }
  if (kind === "gif") {
    return { ...base, media_type: "GIF", media_category: "POST_GIF", media_url: `https://media.example.com/ads/${id}.gif`, file_name: `${id}.gif`, aspect_ratio: "1:1" };
  }
  return {
    ...base,
    media_type: "VIDEO",
    media_category: kind === "promo" ? "PROMO_VIDEO" : "POST_VIDEO",
    media_url: `https://video.example.com/ads/${id}.mp4`,
    file_name: `${id}.mp4`,
    title: title(rng, 3),
    description: `${title(rng, 6)}.`,
    poster_media_url: `https://media.example.com/ads/${id}-poster.jpg`,
    poster_media_key: `${MEDIA_PREFIX.image}_${id}`,
    duration: rng.int(6, 60) * 1000,
    aspect_ratio: "16:9",
  };
}

function seedCreatives(state: MockState, rng: Random, accountId: string, scale: number): void {
  const n = (full: number): number => Math.max(1, Math.round(full * scale));
  const library: MediaLibraryObject[] = [];
  const kinds = ["image", "image", "image", "gif", "video", "promo"] as const;
  for (let i = 0; i < n(30); i++) {
    const item = mediaObject(state, rng, kinds[i % kinds.length] as (typeof kinds)[number], when(rng, 40));
    state.mediaLibrary.set(accountId, item.media_key, item);
    library.push(item);
  }
  const images = library.filter((m) => m.media_type === "IMAGE");
  const videos = library.filter((m) => m.media_type === "VIDEO");

  for (let i = 0; i < n(25); i++) {
    const creativeType = rng.pick(CREATIVE_TYPES);
    const created = when(rng, 40);
    const video = creativeType === "PREROLL" ? rng.pick(videos) : undefined;
    const row: AccountMedia = {
      id: state.ids.numeric("account_media", 5),
      video_id: video ? (video.media_key.split("_")[1] as string) : null,
      media_url: video ? null : `https://media.example.com/ads/${rng.hex(12)}.jpg`,
      creative_type: creativeType,
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    };
    state.accountMedia.set(accountId, row.id, row);
  }

  for (let i = 0; i < n(12); i++) {
    const id = state.ids.numeric("card", 6);
    const created = when(rng, 40);
    const website = rng.bool();
    const media: CardComponent = { type: "MEDIA", media_key: rng.pick(images).media_key };
    const second: CardComponent = website
      ? { type: "DETAILS", title: title(rng, 2), destination: { type: "WEBSITE", url: `https://shop.example.com/${rng.pick(WORDS)}` } }
      : { type: "BUTTON", label: { type: "ENUM", value: rng.pick(["INSTALL", "OPEN", "SHOP", "PLAY"] as const) }, destination: { type: "APP", country_code: "US", android_store_app_id: "com.example.shop" } };
    const card: Card = {
      id,
      name: `${title(rng, 2)} card`,
      card_uri: `card://${id}`,
      card_type: website ? "IMAGE_WEBSITE" : "IMAGE_APP",
      components: [media, second],
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    };
    state.cards.set(accountId, id, card);
  }

  for (let i = 0; i < n(3); i++) {
    const fresh = state.ids.numeric("card", 6);
    const id = scale === 1 && i === 0 ? CONTRACT_EXAMPLE_LEGACY_CARD : fresh;
    const created = when(rng, 10) - 300 * DAY;
    state.legacyCards.set(accountId, id, {
      id,
      name: `${title(rng, 2)} conversation card`,
      card_uri: `card://${id}`,
      card_type: "IMAGE_CONVERSATION",
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    });
  }

  for (let i = 0; i < n(6); i++) {
    const id = state.ids.numeric("card", 6);
    const created = when(rng, 40);
    const duration = rng.pick([60, 1440, 4320, 10080]);
    const poll: PollCard = {
      id,
      name: `${title(rng, 2)} poll`,
      card_uri: `card://${id}`,
      card_type: "TEXT_POLLS",
      first_choice: "Yes",
      second_choice: "No",
      duration_in_minutes: duration,
      start_time: iso(created),
      end_time: iso(created + duration * MINUTE),
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    };
    if (rng.bool()) poll.third_choice = "Maybe";
    state.pollCards.set(accountId, id, poll);
  }

  for (let i = 0; i < n(4); i++) {
    const id = state.ids.numeric("card", 6);
    const created = when(rng, 40);
    const video = rng.pick(videos);
    const card: VideoConversationCard = {
      id,
      name: `${title(rng, 2)} conversation`,
      card_uri: `card://${id}`,
      card_type: "VIDEO_CONVERSATION",
      title: "Which one?",
      first_cta: `#${rng.pick(WORDS)}`,
      first_cta_post: "I pick this one!",
      second_cta: `#${rng.pick(WORDS)}`,
      second_cta_post: "No, this one!",
      thank_you_text: "Thanks for voting!",
      media_key: video.media_key,
      media_url: video.media_url,
      poster_media_url: video.poster_media_url ?? `https://media.example.com/ads/${id}-poster.jpg`,
      video_owner_id: state.defaultUserId,
      video_width: 1280,
      video_height: 720,
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    };
    state.videoConversationCards.set(accountId, id, card);
  }

  for (let i = 0; i < n(4); i++) {
    const id = state.ids.numeric("account_app", 5);
    const created = when(rng, 10) - 100 * DAY;
    const android = i % 2 === 0;
    state.accountApps.set(accountId, id, {
      id,
      app_store_identifier: android ? `com.example.${rng.pick(WORDS)}` : String(rng.int(100_000_000, 999_999_999)),
      os_type: android ? "Android" : "iOS",
      deep_link_pattern: `example${rng.pick(WORDS)}://`,
      conversion_tracking_enabled: rng.bool(),
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    });
  }
}

function seedCampaigns(state: MockState, rng: Random, accountIds: readonly string[]): void {
  state.businessCategories.push(
    { id: "1", name: "Automotive", iab_categories: ["IAB2", "IAB2-1"] },
    { id: "2", name: "Food and drink", iab_categories: ["IAB8"] },
    { id: "3", name: "Travel", iab_categories: ["IAB20"] },
    { id: "4", name: "Technology and computing", iab_categories: ["IAB19", "IAB19-6"] },
  );
  for (let i = 0; i < 4; i++) {
    // Curated categories cannot be listed through the contract either (its list request is not
    // shown): the first one carries the id the contract's examples use.
    const id = i === 0 ? CONTRACT_EXAMPLE_CURATED_CATEGORY : state.ids.numeric("curated_category", 7);
    const created = when(rng, 10) - 120 * DAY;
    state.curatedCategories.set(id, {
      id,
      name: `${title(rng, 2)} highlights`,
      description: `${title(rng, 6)}.`,
      country_codes: i % 2 === 0 ? ["US", "CA"] : ["GB", "DE", "FR"],
      publisher_user_ids: [state.defaultUserId],
      videos_monetized_in_last_thirty_days: rng.int(0, 5_000),
      created_at: iso(created),
      updated_at: iso(created + 30 * DAY),
    });
  }
  const categoryIds = [...state.curatedCategories.keys()];
  const userId = state.defaultUserId;

  for (const accountId of accountIds) {
    for (let c = 0; c < 2; c++) {
      const id = state.ids.numeric("campaign", 2);
      const created = SEED_EPOCH + rng.int(0, 20) * DAY + rng.int(0, 23) * HOUR;
      const start = created + 2 * DAY;
      const name = `${title(rng, 2)} campaign`;
      state.campaigns.set(id, {
        id,
        accountId,
        data: {
          name,
          start_time: iso(start),
          end_time: iso(start + 30 * DAY),
          purchase_order_number: `PO-2025-${String(rng.int(1, 9999)).padStart(4, "0")}`,
          daily_budget_amount_local_micro: rng.int(10, 200) * 1_000_000,
          total_budget_amount_local_micro: rng.int(500, 5_000) * 1_000_000,
          duration_in_days: 7,
          standard_delivery: true,
          entity_status: "ACTIVE",
          frequency_cap: rng.int(1, 5),
          created_at: iso(created),
          updated_at: iso(created),
          deleted: false,
        },
      });
      state.accountHistory.set(accountId, `${id}:create`, {
        entity: "CAMPAIGN",
        entity_id: id,
        change_type: "CREATE",
        change_time: iso(created),
        change_by: { user_id: userId, platform: "Ads API" },
        changes: openObject({ name }),
        entity_data: openObject({ ...(state.campaigns.get(id)?.data ?? {}) }),
      });
      for (let l = 0; l < 3; l++) {
        // The contracts give no way to list or create line items, so clients and the conformance
        // suite can only name them by the ids of the contract's examples: the first account's first
        // campaign carries those (spec/ads-campaigns.yaml, line_item_id examples).
        const exampleId = accountId === accountIds[0] && c === 0 ? CONTRACT_EXAMPLE_LINE_ITEMS[l] : undefined;
        const lineItemId = exampleId ?? state.ids.numeric("line_item", 1);
        const liCreated = created + (l + 1) * HOUR;
        const lineItem: LineItem = {
          id: lineItemId,
          campaign_id: id,
          name: `${name} — ${rng.pick(["site visits", "installs", "reach", "views"])}`,
          objective: rng.pick(["WEBSITE_CLICKS", "REACH", "APP_INSTALLS", "VIDEO_VIEWS"]),
          goal: "LINK_CLICKS",
          product_type: "PROMOTED_POSTS",
          placements: ["ALL_ON_PLATFORM"],
          bid_strategy: "MAX",
          bid_amount_local_micro: rng.int(1, 5) * 500_000,
          target_cpa_local_micro: 2_000_000,
          pay_by: "LINK_CLICK",
          total_budget_amount_local_micro: 1_000_000_000,
          daily_budget_amount_local_micro: 50_000_000,
          start_time: iso(start),
          end_time: iso(start + 30 * DAY),
          standard_delivery: true,
          entity_status: l === 2 ? "PAUSED" : "ACTIVE",
          categories: ["IAB8"],
          primary_web_event_tag: rng.hex(5),
          automatic_post_promotion: false,
          creative_source: "MANUAL",
          currency: "USD",
          created_at: iso(liCreated),
          updated_at: iso(liCreated),
          deleted: false,
        };
        state.lineItems.set(accountId, lineItemId, lineItem);
        state.accountHistory.set(accountId, `${lineItemId}:create`, {
          entity: "LINE_ITEM",
          entity_id: lineItemId,
          change_type: "CREATE",
          change_time: iso(liCreated),
          change_by: { user_id: userId, platform: "Ads API" },
          changes: openObject({ name: lineItem.name }),
          entity_data: openObject({ ...lineItem }),
        });
        const posts = [...state.posts.keys()];
        for (let p = 0; p < 2; p++) {
          const promotedId = state.ids.numeric("promoted_post", 1);
          state.promotedPosts.set(promotedId, { id: promotedId, lineItemId, postId: rng.pick(posts), deleted: false });
        }
        if (l < 2) {
          const liccId = state.ids.numeric("licc", 7);
          state.lineItemCuratedCategories.set(accountId, liccId, {
            id: liccId,
            line_item_id: lineItemId,
            curated_category_id: rng.pick(categoryIds),
            created_at: iso(liCreated + HOUR),
            updated_at: iso(liCreated + HOUR),
            deleted: false,
          });
        }
      }
    }
  }
}

function seedCatalog(state: MockState, rng: Random, userId: string): void {
  const catalogId = state.ids.numeric("catalog", 8);
  state.catalogs.set(catalogId, { data: { id: catalogId, name: "Mock spring collection" }, userId });
  const groups = ["SHIRT-LINEN", "SHOE-TRAIL", "JACKET-RAIN"];
  const groupKeys = new Map(groups.map((g) => [g, state.ids.numeric("item_group", 8)]));
  for (let i = 0; i < 30; i++) {
    const group = i < 9 ? (groups[Math.floor(i / 3)] as string) : undefined;
    const priceUnits = rng.int(10, 200);
    const onSale = rng.bool(0.3);
    const product: Product = {
      id: `SKU-${String(10_000 + i)}`,
      product_key: state.ids.numeric("product", 8),
      title: `${title(rng, 2)} ${group ? group.split("-")[0]?.toLowerCase() ?? "item" : "item"}`,
      description: `${title(rng, 10)}.`,
      availability: rng.pick(["in stock", "in stock", "preorder", "out of stock"] as const),
      condition: "new",
      price: `${priceUnits}.00 USD`,
      link: `https://shop.example.com/products/sku-${10_000 + i}`,
      image_link: `https://shop.example.com/images/sku-${10_000 + i}.jpg`,
      brand: rng.pick(BRANDS),
      gtin: null,
      mpn: null,
      mobile_link: null,
      additional_image_link: null,
      shopping_product_category: "Apparel & Accessories > Clothing",
      product_type: rng.pick(["Clothing > Shirts", "Clothing > Shoes", "Clothing > Outerwear"]),
      inventory: rng.int(1, 500),
      sale_price: onSale ? `${priceUnits - 5}.00 USD` : null,
      sale_price_effective_date: null,
      item_group_id: group ?? null,
      item_group_key: group ? (groupKeys.get(group) ?? null) : null,
      gender: group ? "unisex" : null,
      color: group ? rng.pick(COLORS) : null,
      size: group ? (SIZES[i % 3] as string) : null,
      age_group: group ? "adult" : null,
      custom_label_0: rng.pick(["summer", "winter", "core"]),
      custom_label_1: null,
      custom_label_2: null,
      custom_label_3: null,
      custom_label_4: null,
    };
    state.products.set(catalogId, product.id, product);
  }
  const manualId = state.ids.numeric("product_set", 8);
  const ids = state.products.list(catalogId).slice(9, 13).map((p) => p.id);
  state.productSets.set(catalogId, manualId, { data: { id: manualId, name: "Best sellers", description: null, type: "MANUAL", product_ids: ids, filters: [], processing_status: "DONE" } });
}

function seedAudiences(state: MockState, rng: Random, accountIds: readonly string[]): void {
  const [main, sibling, , other] = accountIds as [string, string, string, string];
  for (const owner of [main, main, other]) {
    const id = state.ids.numeric("tailored_audience", 4);
    state.tailoredAudiences.set(id, { id, ownerAccountId: owner });
  }
  const firstAudience = [...state.tailoredAudiences.keys()][0] as string;
  for (let i = 0; i < 5; i++) {
    const id = state.ids.numeric("permission", 4);
    const created = when(rng, 30);
    state.permissions.set(firstAudience, id, {
      id,
      tailored_audience_id: firstAudience,
      granted_account_id: i === 0 ? sibling : state.ids.numeric("external_account", 3),
      permission_level: i % 2 === 0 ? "READ_ONLY" : "READ_WRITE",
      created_at: iso(created),
      updated_at: iso(created),
      deleted: false,
    });
  }
  const campaigns = [...state.campaigns.values()].filter((c) => c.accountId === main);
  for (let i = 0; i < 2; i++) {
    const id = state.ids.numeric("custom_audience", 4);
    state.customAudiences.set(id, { id, accountId: main, members: new Set() });
    state.targeting.set(
      id,
      campaigns.map((c) => ({
        campaignId: c.id,
        lineItemIds: state.lineItems
          .list(main)
          .filter((l) => l.campaign_id === c.id)
          .map((l) => l.id),
      })),
    );
  }
  for (let i = 0; i < 3; i++) {
    const id = state.ids.numeric("do_not_reach_list", 4);
    const created = when(rng, 30);
    const size = i === 0 ? null : rng.int(1_000, 90_000);
    state.doNotReachLists.set(main, id, {
      data: {
        id,
        name: `${title(rng, 2)} customers`,
        description: i === 1 ? null : `${title(rng, 5)}.`,
        targetable: size !== null,
        reasons_not_targetable: size === null ? ["PROCESSING"] : [],
        list_size: size,
        created_at: iso(created),
        updated_at: iso(created),
        deleted: false,
      },
      members: new Set(),
    });
  }
}
