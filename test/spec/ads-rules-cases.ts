/**
 * One accepted and one rejected instance for every cross-field rule (and the single-field limits
 * that read like rules) of spec/ads-audiences.yaml and spec/ads-campaigns.yaml. ads-rules.test.ts
 * runs them; each rejected instance differs from the accepted one only in what breaks the rule, and
 * `reason` says which failure that must be.
 */
import type { AdsSpec } from "./ads-rules-support.js";

/** The rule is an `x-rules` entry: the error names it and carries its message. */
export interface RuleReason {
  rule: string;
  /** other failures the rejected instance cannot avoid (the same shape as a schema reason) */
  also?: SchemaReason[];
}

/** The rule is plain JSON Schema: an error with exactly this keyword, instance path and schema path. */
export interface SchemaReason {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  /**
   * Schema paths (prefixes) every error must fall under; default `[schemaPath]`. Subschema failures
   * that ajv reports beside the failing keyword (the branches of an anyOf, the `if` of an if/then)
   * sit under these.
   */
  scope?: string[];
}

export interface RuleCase {
  spec: AdsSpec;
  /** what the accepted instance shows, as a test name ("a sale_price lower than price") */
  accepts: string;
  /** what the rejected instance shows ("a sale_price not lower than price") */
  rejects: string;
  /** a component schema, or the query object of an operation */
  target: { schema: string } | { query: string };
  valid: unknown;
  invalid: unknown;
  reason: RuleReason | SchemaReason;
}

const chars = (n: number, c = "a"): string => c.repeat(n);

// ---------------------------------------------------------------------------------------------
// ads-audiences.yaml (document 2)
// ---------------------------------------------------------------------------------------------

const product = {
  id: "SKU-10045",
  title: "Linen shirt",
  description: "Short-sleeved linen shirt with a relaxed fit.",
  availability: "in stock",
  condition: "new",
  price: "49.00 USD",
  link: "https://shop.example.com/products/sku-10045",
  image_link: "https://shop.example.com/images/sku-10045.jpg",
  brand: "Acme",
  inventory: 12,
  sale_price: "39.00 USD",
  color: "sand",
};
const productWithoutBrand = Object.fromEntries(Object.entries(product).filter(([key]) => key !== "brand"));

const keywordQuery = { granularity: "DAY", keywords: ["running shoes"], start_time: "2025-06-01T00:00:00Z", end_time: "2025-06-03T00:00:00Z" };

const AUDIENCES: RuleCase[] = [
  {
    spec: "ads-audiences.yaml",
    accepts: "a product with a brand",
    rejects: "a product with none of brand, gtin and mpn",
    target: { schema: "ProductInput" },
    valid: product,
    invalid: productWithoutBrand,
    reason: { keyword: "anyOf", instancePath: "", schemaPath: "#/anyOf" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a sale_price lower than price",
    rejects: "a sale_price not lower than price",
    target: { schema: "ProductInput" },
    valid: product,
    invalid: { ...product, sale_price: "49.00 USD" },
    reason: { rule: "sale-price-below-price" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "an in-stock product with inventory 1",
    rejects: "an in-stock product with inventory 0",
    target: { schema: "ProductInput" },
    valid: { ...product, inventory: 1 },
    invalid: { ...product, inventory: 0 },
    reason: { keyword: "minimum", instancePath: "/inventory", schemaPath: "#/then/properties/inventory/minimum", scope: ["#/then", "#/if"] },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a plain-text product description",
    rejects: "a product description containing HTML",
    target: { schema: "ProductInput" },
    valid: product,
    invalid: { ...product, description: "<b>Linen</b> shirt" },
    reason: { keyword: "not", instancePath: "/description", schemaPath: "#/properties/description/not" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a product color given by name",
    rejects: "a product color given as a hex code",
    target: { schema: "ProductInput" },
    valid: product,
    invalid: { ...product, color: "#FF0000" },
    reason: { keyword: "not", instancePath: "/color", schemaPath: "#/properties/color/not" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a FILTERED product set with filters",
    rejects: "a FILTERED product set without filters",
    target: { schema: "ProductSetCreateRequest" },
    valid: { name: "Summer sale", type: "FILTERED", filters: [{ attribute: "custom_label_0", operator: "EQUAL_TO", value: "summer" }] },
    invalid: { name: "Summer sale", type: "FILTERED" },
    reason: { keyword: "required", instancePath: "", schemaPath: "#/allOf/0/then/required", scope: ["#/allOf/0"] },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a MANUAL product set with product_keys",
    rejects: "a MANUAL product set without product_keys",
    target: { schema: "ProductSetCreateRequest" },
    valid: { name: "Best sellers", type: "MANUAL", product_keys: ["1516112233445566778"] },
    invalid: { name: "Best sellers", type: "MANUAL" },
    reason: { keyword: "required", instancePath: "", schemaPath: "#/allOf/1/then/required", scope: ["#/allOf/1"] },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a keyword insights range of exactly 7 days",
    rejects: "a keyword insights range one second longer than 7 days",
    target: { query: "searchKeywordInsights" },
    valid: { ...keywordQuery, end_time: "2025-06-08T00:00:00Z" },
    invalid: { ...keywordQuery, end_time: "2025-06-08T00:00:01Z" },
    reason: { rule: "keyword-range-at-most-7-days" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "10 keywords and negative keywords together",
    rejects: "11 keywords and negative keywords together",
    target: { query: "searchKeywordInsights" },
    valid: { ...keywordQuery, keywords: ["a", "b", "c", "d", "e", "f"], negative_keywords: ["g", "h", "i", "j"] },
    invalid: { ...keywordQuery, keywords: ["a", "b", "c", "d", "e", "f"], negative_keywords: ["g", "h", "i", "j", "k"] },
    reason: { rule: "keywords-total-at-most-10" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "with_total_count=true without cursor on the permissions list",
    rejects: "with_total_count=true together with cursor on the permissions list",
    target: { query: "listTailoredAudiencePermissions" },
    valid: { with_total_count: true },
    invalid: { with_total_count: true, cursor: "c-1n8e7fqvb8wr" },
    reason: { rule: "permissions-total-count-excludes-cursor" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a custom audience membership expiring after it takes effect",
    rejects: "a custom audience membership expiring when it takes effect",
    target: { schema: "CustomAudienceMembershipParams" },
    valid: { users: [{ partner_user_id: ["crm-000123"] }], effective_at: "2025-06-01T00:00:00Z", expires_at: "2025-06-01T00:00:01Z" },
    invalid: { users: [{ partner_user_id: ["crm-000123"] }], effective_at: "2025-06-01T00:00:00Z", expires_at: "2025-06-01T00:00:00Z" },
    reason: { rule: "expires-after-effective" },
  },
  {
    spec: "ads-audiences.yaml",
    accepts: "a do-not-reach membership expiring in the future",
    rejects: "a do-not-reach membership expiring in the past",
    target: { schema: "DoNotReachMembershipParams" },
    valid: { users: [], expires_at: "2099-01-01T00:00:00Z" },
    invalid: { users: [], expires_at: "2020-01-01T00:00:00Z" },
    reason: { rule: "do-not-reach-expires-after-now" },
  },
];

// ---------------------------------------------------------------------------------------------
// ads-campaigns.yaml (document 3)
// ---------------------------------------------------------------------------------------------

const media = { type: "MEDIA", media_key: "3_1720000000000000901" };
const swipeable = { type: "SWIPEABLE_MEDIA", media_keys: ["3_1720000000000000901", "3_1720000000000000902"] };
const website = { type: "WEBSITE", url: "https://shop.example.com/summer" };
const details = { type: "DETAILS", title: "Summer sale", destination: website };
const app = { type: "APP", country_code: "US", ios_app_store_identifier: "333903271", ios_deep_link: "exampleshop://home" };
const button = { type: "BUTTON", label: { type: "ENUM", value: "INSTALL" }, destination: app };
const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `3_17200000000000009${String(i).padStart(2, "0")}`);

const poll = { duration_in_minutes: 1440, first_choice: "Spring", second_choice: "Summer", name: "Favourite season" };
const conversation = {
  name: "Pick your flavour",
  media_key: "13_1730000000000000001",
  first_cta: "#Mango",
  first_cta_post: "I pick mango!",
  thank_you_text: "Thanks for voting!",
};
const history = { entity_type: "CAMPAIGN", entity_id: "1780000000000000001", start_time: "2025-05-01T00:00:00Z", end_time: "2025-05-31T23:00:00Z" };

/** with_total_count excludes cursor: one rule per list operation that has both. */
const TOTAL_COUNT_LISTS: [operationId: string, ruleId: string][] = [
  ["listAccountMedia", "account-media-total-count-excludes-cursor"],
  ["listPollCards", "poll-cards-total-count-excludes-cursor"],
  ["listVideoConversationCards", "video-conversation-cards-total-count-excludes-cursor"],
  ["listAccounts", "accounts-total-count-excludes-cursor"],
  ["listAccountApps", "account-apps-total-count-excludes-cursor"],
  ["listLineItemCuratedCategories", "line-item-curated-categories-total-count-excludes-cursor"],
];

const CAMPAIGNS: RuleCase[] = [
  ...TOTAL_COUNT_LISTS.map(([operationId, rule]): RuleCase => ({
    spec: "ads-campaigns.yaml",
    accepts: `with_total_count=true without cursor on ${operationId}`,
    rejects: `with_total_count=true together with cursor on ${operationId}`,
    target: { query: operationId },
    valid: { with_total_count: true, count: 200 },
    invalid: { with_total_count: true, count: 200, cursor: "c-8f2kq0wz" },
    reason: { rule },
  })),
  // ---- cards (JSON body of createCard) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "a card with components only",
    rejects: "a card with both components and slides",
    target: { schema: "CreateCardRequest" },
    valid: { name: "Summer sale", components: [media, details] },
    invalid: {
      name: "Summer sale",
      components: [media, details],
      slides: [
        [media, details],
        [media, details],
      ],
    },
    reason: { keyword: "oneOf", instancePath: "", schemaPath: "#/oneOf" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a card with slides only",
    rejects: "a card with neither components nor slides",
    target: { schema: "CreateCardRequest" },
    valid: {
      name: "Summer sale",
      slides: [
        [media, details],
        [swipeable, details],
      ],
    },
    invalid: { name: "Summer sale" },
    reason: { keyword: "oneOf", instancePath: "", schemaPath: "#/oneOf" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a card name of 80 characters",
    rejects: "a card name of 81 characters",
    target: { schema: "CreateCardRequest" },
    valid: { name: chars(80), components: [media, details] },
    invalid: { name: chars(81), components: [media, details] },
    reason: { keyword: "maxLength", instancePath: "/name", schemaPath: "#/properties/name/maxLength" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "components with one media component and a DETAILS component",
    rejects: "components with two media components",
    target: { schema: "CardComponents" },
    valid: [media, details],
    invalid: [media, swipeable, details],
    reason: { keyword: "contains", instancePath: "", schemaPath: "#/allOf/0/contains" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "components with one SWIPEABLE_MEDIA component and a BUTTON component",
    rejects: "components without a media component",
    target: { schema: "CardComponents" },
    valid: [swipeable, button],
    invalid: [button],
    reason: { keyword: "contains", instancePath: "", schemaPath: "#/allOf/0/contains" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "components with a media component and a BUTTON component",
    rejects: "components with a media component and neither DETAILS nor BUTTON",
    target: { schema: "CardComponents" },
    valid: [media, button],
    invalid: [media],
    reason: { keyword: "contains", instancePath: "", schemaPath: "#/allOf/1/contains" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "components with a DETAILS component only besides the media",
    rejects: "components with both a DETAILS and a BUTTON component",
    target: { schema: "CardComponents" },
    valid: [media, details],
    invalid: [media, details, button],
    reason: { keyword: "contains", instancePath: "", schemaPath: "#/allOf/1/contains" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "slides that each hold a media component and a DETAILS component",
    rejects: "a slide without its DETAILS or BUTTON component",
    target: { schema: "CreateCardRequest" },
    valid: {
      name: "Carousel",
      slides: [
        [media, details],
        [media, details],
      ],
    },
    invalid: { name: "Carousel", slides: [[media, details], [media]] },
    reason: {
      keyword: "contains",
      instancePath: "/slides/1",
      schemaPath: "#/properties/slides/items/allOf/1/contains",
      scope: ["#/properties/slides/items/allOf/1/contains"],
    },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a SWIPEABLE_MEDIA component with 2 media keys",
    rejects: "a SWIPEABLE_MEDIA component with 1 media key",
    target: { schema: "SwipeableMediaComponent" },
    valid: { type: "SWIPEABLE_MEDIA", media_keys: keys(2) },
    invalid: { type: "SWIPEABLE_MEDIA", media_keys: keys(1) },
    reason: { keyword: "minItems", instancePath: "/media_keys", schemaPath: "#/properties/media_keys/minItems" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a SWIPEABLE_MEDIA component with 6 media keys",
    rejects: "a SWIPEABLE_MEDIA component with 7 media keys",
    target: { schema: "SwipeableMediaComponent" },
    valid: { type: "SWIPEABLE_MEDIA", media_keys: keys(6) },
    invalid: { type: "SWIPEABLE_MEDIA", media_keys: keys(7) },
    reason: { keyword: "maxItems", instancePath: "/media_keys", schemaPath: "#/properties/media_keys/maxItems" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a button label of type ENUM",
    rejects: "a button label of another type",
    target: { schema: "ButtonLabel" },
    valid: { type: "ENUM", value: "SHOP" },
    invalid: { type: "TEXT", value: "SHOP" },
    reason: { keyword: "const", instancePath: "/type", schemaPath: "#/properties/type/const" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a button label value BOOK",
    rejects: "a button label value outside BOOK … SHOP",
    target: { schema: "ButtonLabel" },
    valid: { type: "ENUM", value: "BOOK" },
    invalid: { type: "ENUM", value: "BUY" },
    reason: { keyword: "enum", instancePath: "/value", schemaPath: "#/properties/value/enum" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a website destination with a url",
    rejects: "a website destination without a url",
    target: { schema: "WebsiteDestination" },
    valid: website,
    invalid: { type: "WEBSITE" },
    reason: { keyword: "required", instancePath: "", schemaPath: "#/required" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a website destination of type WEBSITE",
    rejects: "a website destination of type APP",
    target: { schema: "WebsiteDestination" },
    valid: website,
    invalid: { ...website, type: "APP" },
    reason: { keyword: "const", instancePath: "/type", schemaPath: "#/properties/type/const" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an app destination of type APP",
    rejects: "an app destination of type WEBSITE",
    target: { schema: "AppDestination" },
    valid: app,
    invalid: { ...app, type: "WEBSITE" },
    reason: { keyword: "const", instancePath: "/type", schemaPath: "#/properties/type/const" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an app destination with a country_code",
    rejects: "an app destination without a country_code",
    target: { schema: "AppDestination" },
    valid: app,
    invalid: { type: "APP", ios_app_store_identifier: "333903271" },
    reason: { keyword: "required", instancePath: "", schemaPath: "#/required" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an app destination country_code in ISO 3166-1 alpha-2",
    rejects: "an app destination country_code in alpha-3",
    target: { schema: "AppDestination" },
    valid: app,
    invalid: { ...app, country_code: "USA" },
    reason: { keyword: "pattern", instancePath: "/country_code", schemaPath: "#/properties/country_code/pattern" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an app destination with an Android app id only",
    rejects: "an app destination with neither an Android app id nor an iOS identifier",
    target: { schema: "AppDestination" },
    valid: { type: "APP", country_code: "US", android_store_app_id: "com.example.shop" },
    invalid: { type: "APP", country_code: "US" },
    reason: { keyword: "anyOf", instancePath: "", schemaPath: "#/anyOf" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an android_store_deep_link with its Android app id",
    rejects: "an android_store_deep_link without the Android app id",
    target: { schema: "AppDestination" },
    valid: { type: "APP", country_code: "US", android_store_app_id: "com.example.shop", android_store_deep_link: "exampleshop://home" },
    invalid: { type: "APP", country_code: "US", ios_app_store_identifier: "333903271", android_store_deep_link: "exampleshop://home" },
    reason: { keyword: "dependentRequired", instancePath: "", schemaPath: "#/dependentRequired" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an ios_deep_link with its iOS identifier",
    rejects: "an ios_deep_link without the iOS identifier",
    target: { schema: "AppDestination" },
    valid: app,
    invalid: { type: "APP", country_code: "US", android_store_app_id: "com.example.shop", ios_deep_link: "exampleshop://home" },
    reason: { keyword: "dependentRequired", instancePath: "", schemaPath: "#/dependentRequired" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a DETAILS component with a website destination",
    rejects: "a DETAILS component with an app destination",
    target: { schema: "DetailsComponent" },
    valid: details,
    invalid: { ...details, destination: { ...app, url: "https://shop.example.com/summer" } },
    reason: { keyword: "const", instancePath: "/destination/type", schemaPath: "#/properties/destination/properties/type/const" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a BUTTON component with an app destination",
    rejects: "a BUTTON component with a website destination",
    target: { schema: "ButtonComponent" },
    valid: button,
    invalid: { ...button, destination: { ...app, type: "WEBSITE", url: "https://shop.example.com/summer" } },
    reason: { keyword: "const", instancePath: "/destination/type", schemaPath: "#/properties/destination/properties/type/const" },
  },
  // ---- poll cards (query of createPollCard) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "a third poll choice with the first two",
    rejects: "a third poll choice without the second",
    target: { query: "createPollCard" },
    valid: { ...poll, third_choice: "Autumn" },
    invalid: { duration_in_minutes: 1440, first_choice: "Spring", third_choice: "Autumn", name: "Favourite season" },
    // second_choice is a required parameter as well, so its own `required` failure accompanies the rule.
    reason: { rule: "poll-third-choice-needs-first-two", also: [{ keyword: "required", instancePath: "", schemaPath: "#/required" }] },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a fourth poll choice with the first three",
    rejects: "a fourth poll choice without the third",
    target: { query: "createPollCard" },
    valid: { ...poll, third_choice: "Autumn", fourth_choice: "Winter" },
    invalid: { ...poll, fourth_choice: "Winter" },
    reason: { rule: "poll-fourth-choice-needs-first-three" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a poll duration of 5 minutes",
    rejects: "a poll duration of 4 minutes",
    target: { query: "createPollCard" },
    valid: { ...poll, duration_in_minutes: 5 },
    invalid: { ...poll, duration_in_minutes: 4 },
    reason: { keyword: "minimum", instancePath: "/duration_in_minutes", schemaPath: "#/properties/duration_in_minutes/minimum" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a poll duration of 10080 minutes",
    rejects: "a poll duration of 10081 minutes",
    target: { query: "createPollCard" },
    valid: { ...poll, duration_in_minutes: 10080 },
    invalid: { ...poll, duration_in_minutes: 10081 },
    reason: { keyword: "maximum", instancePath: "/duration_in_minutes", schemaPath: "#/properties/duration_in_minutes/maximum" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a poll choice of 25 characters",
    rejects: "a poll choice of 26 characters",
    target: { query: "createPollCard" },
    valid: { ...poll, first_choice: chars(25) },
    invalid: { ...poll, first_choice: chars(26) },
    reason: { keyword: "maxLength", instancePath: "/first_choice", schemaPath: "#/properties/first_choice/maxLength" },
  },
  // ---- video conversation cards (query of createVideoConversationCard) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "a video conversation card with a title and no second CTA",
    rejects: "a video conversation card with neither title nor second CTA",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, title: "Which flavour?" },
    invalid: conversation,
    reason: { rule: "video-conversation-title-or-second-cta" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a second CTA with its post text",
    rejects: "a second CTA without its post text",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, second_cta: "#Lime", second_cta_post: "I pick lime!" },
    invalid: { ...conversation, title: "Which flavour?", second_cta: "#Lime" },
    reason: { rule: "video-conversation-second-cta-needs-post" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a third CTA with its post text",
    rejects: "a third CTA without its post text",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, title: "Which flavour?", third_cta: "#Berry", third_cta_post: "I pick berry!" },
    invalid: { ...conversation, title: "Which flavour?", third_cta: "#Berry" },
    reason: { rule: "video-conversation-third-cta-needs-post" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a fourth CTA with its post text",
    rejects: "a fourth CTA without its post text",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, title: "Which flavour?", fourth_cta: "#Peach", fourth_cta_post: "I pick peach!" },
    invalid: { ...conversation, title: "Which flavour?", fourth_cta: "#Peach" },
    reason: { rule: "video-conversation-fourth-cta-needs-post" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a CTA hashtag of 20 characters plus #",
    rejects: "a CTA hashtag of 21 characters plus #",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, title: "Which flavour?", first_cta: `#${chars(20)}` },
    invalid: { ...conversation, title: "Which flavour?", first_cta: `#${chars(21)}` },
    reason: { keyword: "pattern", instancePath: "/first_cta", schemaPath: "#/properties/first_cta/pattern" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a thank-you text of 23 characters",
    rejects: "a thank-you text of 24 characters",
    target: { query: "createVideoConversationCard" },
    valid: { ...conversation, title: "Which flavour?", thank_you_text: chars(23) },
    invalid: { ...conversation, title: "Which flavour?", thank_you_text: chars(24) },
    reason: { keyword: "maxLength", instancePath: "/thank_you_text", schemaPath: "#/properties/thank_you_text/maxLength" },
  },
  // ---- advertiser posts (query of createAdvertiserPost) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "an advertiser post with media_keys and no text",
    rejects: "an advertiser post with neither text nor media_keys",
    target: { query: "createAdvertiserPost" },
    valid: { as_user_id: 2244994945, media_keys: ["3_1730000000000000003"] },
    invalid: { as_user_id: 2244994945, name: "Summer sale post" },
    reason: { rule: "advertiser-post-text-or-media-keys" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an advertiser post with 4 media keys",
    rejects: "an advertiser post with 5 media keys",
    target: { query: "createAdvertiserPost" },
    valid: { as_user_id: 2244994945, media_keys: keys(4) },
    invalid: { as_user_id: 2244994945, media_keys: keys(5) },
    reason: { keyword: "maxItems", instancePath: "/media_keys", schemaPath: "#/properties/media_keys/maxItems" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an advertiser post card_uri of the form card://",
    rejects: "an advertiser post card_uri that is a web URL",
    target: { query: "createAdvertiserPost" },
    valid: { as_user_id: 2244994945, text: "Summer sale", card_uri: "card://1720000000000000001" },
    invalid: { as_user_id: 2244994945, text: "Summer sale", card_uri: "https://cards.example.com/1720000000000000001" },
    reason: { keyword: "pattern", instancePath: "/card_uri", schemaPath: "#/properties/card_uri/pattern" },
  },
  // ---- line items (query of updateLineItem) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "bid strategy TARGET with a bid amount",
    rejects: "bid strategy MAX without a bid amount",
    target: { query: "updateLineItem" },
    valid: { bid_strategy: "TARGET", bid_amount_local_micro: 1500000 },
    invalid: { bid_strategy: "MAX" },
    reason: { rule: "line-item-bid-amount-for-max-or-target" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a bid amount greater than zero",
    rejects: "a bid amount of zero",
    target: { query: "updateLineItem" },
    valid: { bid_strategy: "MAX", bid_amount_local_micro: 1 },
    invalid: { bid_strategy: "MAX", bid_amount_local_micro: 0 },
    reason: { keyword: "exclusiveMinimum", instancePath: "/bid_amount_local_micro", schemaPath: "#/properties/bid_amount_local_micro/exclusiveMinimum" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a daily budget equal to the total budget",
    rejects: "a daily budget above the total budget",
    target: { query: "updateLineItem" },
    valid: { daily_budget_amount_local_micro: 50000000, total_budget_amount_local_micro: 50000000 },
    invalid: { daily_budget_amount_local_micro: 50000001, total_budget_amount_local_micro: 50000000 },
    reason: { rule: "line-item-daily-budget-at-most-total" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "goal LINK_CLICKS with bid strategy TARGET billed per link click",
    rejects: "goal LINK_CLICKS with bid strategy TARGET billed per impression",
    target: { query: "updateLineItem" },
    valid: { goal: "LINK_CLICKS", bid_strategy: "TARGET", bid_amount_local_micro: 1500000, pay_by: "LINK_CLICK" },
    invalid: { goal: "LINK_CLICKS", bid_strategy: "TARGET", bid_amount_local_micro: 1500000, pay_by: "IMPRESSION" },
    reason: { rule: "line-item-link-clicks-target-not-impression" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "a frequency cap window of 7 days",
    rejects: "a frequency cap window of 14 days",
    target: { query: "updateLineItem" },
    valid: { frequency_cap: 3, duration_in_days: 7 },
    invalid: { frequency_cap: 3, duration_in_days: 14 },
    reason: { keyword: "enum", instancePath: "/duration_in_days", schemaPath: "#/properties/duration_in_days/enum" },
  },
  // ---- account history (query of listAccountHistory) ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "an account history start_time on a whole hour",
    rejects: "an account history start_time with minutes",
    target: { query: "listAccountHistory" },
    valid: history,
    invalid: { ...history, start_time: "2025-05-01T10:30:00Z" },
    reason: { keyword: "pattern", instancePath: "/start_time", schemaPath: "#/properties/start_time/pattern" },
  },
  {
    spec: "ads-campaigns.yaml",
    accepts: "an account history end_time on a whole hour",
    rejects: "an account history end_time with seconds",
    target: { query: "listAccountHistory" },
    valid: history,
    invalid: { ...history, end_time: "2025-05-31T23:00:15Z" },
    reason: { keyword: "pattern", instancePath: "/end_time", schemaPath: "#/properties/end_time/pattern" },
  },
  // ---- id filters ----
  {
    spec: "ads-campaigns.yaml",
    accepts: "an account media id filter of 200 ids",
    rejects: "an account media id filter of 201 ids",
    target: { query: "listAccountMedia" },
    valid: { account_media_ids: Array.from({ length: 200 }, (_, i) => `17100000000000${String(i).padStart(5, "0")}`) },
    invalid: { account_media_ids: Array.from({ length: 201 }, (_, i) => `17100000000000${String(i).padStart(5, "0")}`) },
    reason: { keyword: "maxItems", instancePath: "/account_media_ids", schemaPath: "#/properties/account_media_ids/maxItems" },
  },
];

export const RULE_CASES: RuleCase[] = [...AUDIENCES, ...CAMPAIGNS];
