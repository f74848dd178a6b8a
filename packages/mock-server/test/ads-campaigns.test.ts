/**
 * Document 3 on the mock: every row of its state table (soft deletes, the repeated line item
 * delete, no cascade, entity status, poll closing, PROMO_VIDEO → PREROLL), its limits, and the
 * creatives and accounts it describes.
 */
import { describe, expect, it } from "vitest";
import { harness, type Harness } from "./support/harness.js";

function main(h: Harness): string {
  return [...h.state.accounts.values()][0]?.data.id ?? "";
}

const base = (h: Harness) => `/12/accounts/${main(h)}`;

interface Deletable {
  readonly what: string;
  /** The id of a live object of the kind, and the paths that list, get and delete it. */
  readonly pick: (h: Harness) => { id: string; list: string; get?: string; del: string; listKey: string };
}

const creatives: Deletable[] = [
  {
    what: "account media",
    pick: (h) => {
      const id = h.state.accountMedia.list(main(h))[0]?.id ?? "";
      return { id, list: `${base(h)}/account_media`, get: `${base(h)}/account_media/${id}`, del: `${base(h)}/account_media/${id}`, listKey: "id" };
    },
  },
  {
    what: "card (legacy card path)",
    pick: (h) => {
      const id = h.state.legacyCards.list(main(h))[0]?.id ?? "";
      return { id, list: `${base(h)}/cards?include_legacy_cards=true`, del: `${base(h)}/cards/image_conversation/${id}`, listKey: "id" };
    },
  },
  {
    what: "media library object",
    pick: (h) => {
      const id = h.state.mediaLibrary.list(main(h))[0]?.media_key ?? "";
      return { id, list: `${base(h)}/media_library?count=50`, get: `${base(h)}/media_library/${id}`, del: `${base(h)}/media_library/${id}`, listKey: "media_key" };
    },
  },
  {
    what: "line item",
    pick: (h) => {
      const id = h.state.lineItems.list(main(h))[0]?.id ?? "";
      return { id, list: "", del: `${base(h)}/line_items/${id}`, listKey: "id" };
    },
  },
  {
    what: "line item curated category",
    pick: (h) => {
      const id = h.state.lineItemCuratedCategories.list(main(h))[0]?.id ?? "";
      return { id, list: `${base(h)}/line_item_curated_categories`, get: `${base(h)}/line_item_curated_categories/${id}`, del: `${base(h)}/line_item_curated_categories/${id}`, listKey: "id" };
    },
  },
];

async function listedIds(h: Harness, path: string, key: string, withDeleted: boolean): Promise<string[]> {
  const [p, q] = path.split("?");
  const query = Object.fromEntries(new URLSearchParams(q ?? ""));
  const res = await h.call("GET", p ?? "", { query: { ...query, ...(withDeleted ? { with_deleted: true } : {}) } });
  expect(res.status).toBe(200);
  return res.body.data.map((row: Record<string, string>) => row[key]);
}

describe("document 3 state table: soft deletes", () => {
  it.each(creatives)("any creative or line item with deleted=false: DELETE on a $what sets deleted=true, returns it, and lists it later only with with_deleted=true", async ({ pick }) => {
    const h = await harness();
    const { id, list, get, del, listKey } = pick(h);
    const res = await h.call("DELETE", del);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ [listKey]: id, deleted: true });
    if (list !== "") {
      // The media library list has no with_deleted: a deleted object is not listed at all.
      const hasWithDeleted = !list.includes("media_library");
      expect(await listedIds(h, list, listKey, false)).not.toContain(id);
      if (hasWithDeleted) expect(await listedIds(h, list, listKey, true)).toContain(id);
    }
    if (get) {
      expect((await h.call("GET", get)).status).toBe(404);
      if (!get.includes("media_library")) {
        const withDeleted = await h.call("GET", get, { query: { with_deleted: true } });
        expect(withDeleted.status).toBe(200);
        expect(withDeleted.body.data.deleted).toBe(true);
      }
    }
  });

  it("line item deleted: DELETE again answers 404 and changes nothing", async () => {
    const h = await harness();
    const lineItem = h.state.lineItems.list(main(h))[0];
    const first = await h.call("DELETE", `${base(h)}/line_items/${lineItem?.id}`);
    expect(first.status).toBe(200);
    const again = await h.call("DELETE", `${base(h)}/line_items/${lineItem?.id}`);
    expect(again.status).toBe(404);
    expect(h.state.lineItems.get(main(h), lineItem?.id ?? "")).toMatchObject({ deleted: true, updated_at: first.body.data.updated_at });
  });

  it("line item deleted: deletes are not cascaded, its promoted posts and curated category links stay deleted=false", async () => {
    const h = await harness();
    const link = h.state.lineItemCuratedCategories.list(main(h))[0];
    const lineItemId = link?.line_item_id ?? "";
    const promoted = [...h.state.promotedPosts.values()].filter((p) => p.lineItemId === lineItemId);
    expect(promoted.length).toBeGreaterThan(0);
    expect((await h.call("DELETE", `${base(h)}/line_items/${lineItemId}`)).status).toBe(200);
    for (const p of promoted) expect(h.state.promotedPosts.get(p.id)?.deleted).toBe(false);
    const listed = await h.call("GET", `${base(h)}/line_item_curated_categories`);
    expect(listed.body.data).toContainEqual(expect.objectContaining({ id: link?.id, line_item_id: lineItemId, deleted: false }));
  });

  it("a deleted line item cannot be updated", async () => {
    const h = await harness();
    const id = h.state.lineItems.list(main(h))[0]?.id;
    await h.call("DELETE", `${base(h)}/line_items/${id}`);
    expect((await h.call("PUT", `${base(h)}/line_items/${id}`, { query: { name: "again" } })).status).toBe(404);
  });
});

describe("document 3 state table: line item entity status", () => {
  it.each([
    ["ACTIVE", "PAUSED"],
    ["PAUSED", "ACTIVE"],
    ["ACTIVE", "ACTIVE"],
    ["PAUSED", "PAUSED"],
  ] as const)("line item entity_status %s: PUT line item with entity_status=%s sets the given value", async (from, to) => {
    const h = await harness();
    const lineItem = h.state.lineItems.list(main(h)).find((l) => l.entity_status === from);
    const res = await h.call("PUT", `${base(h)}/line_items/${lineItem?.id}`, { query: { entity_status: to } });
    expect(res.status).toBe(200);
    expect(res.body.data.entity_status).toBe(to);
    expect(h.state.lineItems.get(main(h), lineItem?.id ?? "")?.entity_status).toBe(to);
  });

  it("line item updates keep daily budget at most total budget, also against the stored total", async () => {
    const h = await harness();
    const lineItem = h.state.lineItems.list(main(h))[0];
    const res = await h.call("PUT", `${base(h)}/line_items/${lineItem?.id}`, { query: { daily_budget_amount_local_micro: (lineItem?.total_budget_amount_local_micro ?? 0) + 1 } });
    expect(res.status).toBe(400);
  });
});

describe("document 3 state table: poll cards close", () => {
  it("poll card open: duration_in_minutes after creation (not after first use) it is closed; end_time shows when", async () => {
    let now = Date.UTC(2026, 2, 1, 12, 0, 0);
    const h = await harness({ now: () => now });
    const res = await h.call("POST", `${base(h)}/cards/poll`, { query: { name: "Season", duration_in_minutes: 60, first_choice: "Spring", second_choice: "Summer" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ card_type: "TEXT_POLLS", start_time: "2026-03-01T12:00:00Z", end_time: "2026-03-01T13:00:00Z", created_at: "2026-03-01T12:00:00Z" });
    const poll = h.state.pollCards.get(main(h), res.body.data.id);
    if (!poll) throw new Error("poll not stored");
    now += 59 * 60_000;
    expect(h.state.pollStatus(poll)).toBe("open");
    // Using the card in a post does not restart the clock.
    expect((await h.call("POST", `${base(h)}/post`, { query: { as_user_id: Number(h.state.defaultUserId), text: "Vote!", card_uri: poll.card_uri } })).status).toBe(200);
    now += 60_000;
    expect(h.state.pollStatus(poll)).toBe("closed");
  });

  it("media polls need the PROMOTED_MEDIA_POLLS feature and a library video", async () => {
    const h = await harness();
    const video = h.state.mediaLibrary.list(main(h)).find((m) => m.media_type === "VIDEO");
    const made = await h.call("POST", `${base(h)}/cards/poll`, { query: { name: "Trailer", duration_in_minutes: 4320, first_choice: "Yes", second_choice: "No", media_key: video?.media_key } });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ card_type: "VIDEO_POLLS", video_url: video?.media_url, video_width: 1280 });
    h.state.accounts.get(main(h))?.features.delete("PROMOTED_MEDIA_POLLS");
    const refused = await h.call("POST", `${base(h)}/cards/poll`, { query: { name: "Trailer", duration_in_minutes: 4320, first_choice: "Yes", second_choice: "No", media_key: video?.media_key } });
    expect(refused.status).toBe(403);
  });
});

describe("document 3 state table: PROMO_VIDEO", () => {
  it("video in media library with category PROMO_VIDEO: POST media library also creates a PREROLL account media object", async () => {
    const h = await harness();
    const before = h.state.accountMedia.list(main(h)).length;
    const res = await h.call("POST", `${base(h)}/media_library`, { query: { media_key: "13_1730000000000000777", name: "Teaser", title: "Summer is back" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ media_key: "13_1730000000000000777", media_type: "VIDEO", media_category: "PROMO_VIDEO", title: "Summer is back", deleted: false });
    const media = h.state.accountMedia.list(main(h));
    expect(media).toHaveLength(before + 1);
    expect(media.at(-1)).toMatchObject({ creative_type: "PREROLL", video_id: "1730000000000000777", deleted: false });
    const listed = await h.call("GET", `${base(h)}/account_media`, { query: { creative_types: ["PREROLL"] } });
    expect(listed.body.data.map((m: { video_id: string | null }) => m.video_id)).toContain("1730000000000000777");
  });

  it("an image or a plain video does not create account media", async () => {
    const h = await harness();
    const before = h.state.accountMedia.list(main(h)).length;
    expect((await h.call("POST", `${base(h)}/media_library`, { query: { media_key: "3_1730000000000000778" } })).status).toBe(200);
    expect((await h.call("POST", `${base(h)}/media_library`, { query: { media_key: "7_1730000000000000779" } })).status).toBe(200);
    expect(h.state.accountMedia.list(main(h))).toHaveLength(before);
  });

  it("video-only fields are refused on an image", async () => {
    const h = await harness();
    expect((await h.call("POST", `${base(h)}/media_library`, { query: { media_key: "3_1730000000000000780", title: "No" } })).status).toBe(400);
  });
});

describe("document 3 creatives", () => {
  it("createCard derives the card type from its components; getCard answers it in a one-element array", async () => {
    const h = await harness();
    const images = h.state.mediaLibrary.list(main(h)).filter((m) => m.media_type === "IMAGE");
    const made = await h.call("POST", `${base(h)}/cards`, {
      body: {
        name: "Install card",
        components: [
          { type: "SWIPEABLE_MEDIA", media_keys: [images[0]?.media_key, images[1]?.media_key] },
          { type: "BUTTON", label: { type: "ENUM", value: "INSTALL" }, destination: { type: "APP", country_code: "US", ios_app_store_identifier: "333903271" } },
        ],
      },
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name: "Install card", card_type: "IMAGE_CAROUSEL_APP", card_uri: `card://${made.body.data.id}`, deleted: false });
    const got = await h.call("GET", `${base(h)}/cards/${made.body.data.id}`);
    expect(got.body.data).toEqual([made.body.data]);
  });

  it("components and slides together are refused", async () => {
    const h = await harness();
    const media = { type: "MEDIA", media_key: "3_1" };
    const details = { type: "DETAILS", title: "t", destination: { type: "WEBSITE", url: "https://x.example.com" } };
    const res = await h.call("POST", `${base(h)}/cards`, { body: { name: "Both", components: [media, details], slides: [[media, details]] } });
    expect(res.status).toBe(400);
  });

  it("createAdvertiserPost answers the legacy post without GET-only members; the name update answers the full post", async () => {
    const h = await harness();
    const made = await h.call("POST", `${base(h)}/post`, { query: { as_user_id: Number(h.state.defaultUserId), text: "Summer sale starts today.", name: "Sale", trim_user: true } });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ id_str: expect.stringMatching(/^\d+$/), text: "Summer sale starts today.", user: { id: Number(h.state.defaultUserId), id_str: h.state.defaultUserId } });
    expect(made.body.data.id).toBe(Number(made.body.data.id_str));
    expect(made.body.data).not.toHaveProperty("conversation_settings");
    const renamed = await h.call("PUT", `${base(h)}/posts/${made.body.data.id_str}/name`, { query: { name: "Sale (final)" } });
    expect(renamed.body.data).toMatchObject({ name: "Sale (final)", conversation_settings: "EVERYONE", post_type: "PUBLISHED", post_id: made.body.data.id_str, display_text_range: [0, 25] });
    // The post is on the platform too.
    const lookup = await h.call("GET", "/2/posts", { query: { ids: [made.body.data.id_str] }, auth: { bearer: h.credentials.bearerToken } });
    expect(lookup.body.data).toEqual([{ id: made.body.data.id_str, text: "Summer sale starts today." }]);
  });

  it("video conversation cards need a library video and keep the optional CTA pairs given", async () => {
    const h = await harness();
    const video = h.state.mediaLibrary.list(main(h)).find((m) => m.media_type === "VIDEO");
    const query = { name: "Flavour", media_key: video?.media_key, first_cta: "#Mango", first_cta_post: "Mango!", thank_you_text: "Thanks!", second_cta: "#Lime", second_cta_post: "Lime!" };
    const made = await h.call("POST", `${base(h)}/cards/video_conversation`, { query });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ card_type: "VIDEO_CONVERSATION", second_cta: "#Lime", media_url: video?.media_url });
    expect(made.body.data).not.toHaveProperty("title");
    const image = h.state.mediaLibrary.list(main(h)).find((m) => m.media_type === "IMAGE");
    expect((await h.call("POST", `${base(h)}/cards/video_conversation`, { query: { ...query, media_key: image?.media_key } })).status).toBe(400);
  });

  it("lists page with count and cursor, and total_count comes with with_total_count=true", async () => {
    const h = await harness();
    const first = await h.call("GET", `${base(h)}/account_media`, { query: { count: 10, with_total_count: true } });
    expect(first.body).toMatchObject({ total_count: 25, next_cursor: expect.any(String) });
    const ids: string[] = first.body.data.map((m: { id: string }) => m.id);
    let cursor: string | null = first.body.next_cursor;
    while (cursor) {
      const page = await h.call("GET", `${base(h)}/account_media`, { query: { count: 10, cursor } });
      ids.push(...page.body.data.map((m: { id: string }) => m.id));
      cursor = page.body.next_cursor;
    }
    expect(ids).toEqual(h.state.accountMedia.list(main(h)).map((m) => m.id));
  });

  it("the media library searches name, title, file_name and description case-insensitively", async () => {
    const h = await harness();
    const item = h.state.mediaLibrary.list(main(h)).find((m) => m.file_name.length > 0);
    const res = await h.call("GET", `${base(h)}/media_library`, { query: { q: item?.file_name.toUpperCase(), count: 50 } });
    expect(res.body.data.map((m: { media_key: string }) => m.media_key)).toContain(item?.media_key);
  });
});

describe("document 3 accounts and categories", () => {
  it("lists only the accounts associated with the user; another user's account answers 403", async () => {
    const h = await harness();
    const listed = await h.call("GET", "/12/accounts");
    const mine = [...h.state.accounts.values()].filter((a) => a.userIds.includes(h.state.defaultUserId)).map((a) => a.data.id);
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual(mine);
    const foreign = [...h.state.accounts.values()].find((a) => !a.userIds.includes(h.state.defaultUserId));
    expect((await h.call("GET", `/12/accounts/${foreign?.data.id}`)).status).toBe(403);
  });

  it("sandbox accounts are created in an array, take features, and are soft-deleted", async () => {
    const h = await harness();
    const made = await h.call("POST", "/12/accounts");
    expect(made.body.data).toHaveLength(1);
    const id = made.body.data[0].id;
    const features = await h.call("POST", `/12/accounts/${id}/features`, { query: { feature_keys: ["CONVERSATION_CARD", "PREROLL_VIEWS_OBJECTIVE"] } });
    expect(features.body.data).toEqual(["CONVERSATION_CARD", "PREROLL_VIEWS_OBJECTIVE"]);
    const deleted = await h.call("DELETE", `/12/accounts/${id}`);
    expect(deleted.body.data).toMatchObject({ id, deleted: true });
    expect((await h.call("GET", `/12/accounts/${id}`)).status).toBe(404);
    expect((await h.call("GET", `/12/accounts/${id}`, { query: { with_deleted: true } })).body.data.deleted).toBe(true);
    // Production accounts are not sandbox accounts.
    expect((await h.call("DELETE", `/12/accounts/${main(h)}`)).status).toBe(400);
  });

  it("features list only what the account holds, filtered by feature_keys", async () => {
    const h = await harness();
    const res = await h.call("GET", `${base(h)}/features`, { query: { feature_keys: ["REACH_FREQUENCY_CAP", "WEBSITE_CLICKS_CPM_BILLING"] } });
    expect(res.body.data).toEqual(["REACH_FREQUENCY_CAP"]);
  });

  it("account history finds the seeded creation and records line item updates", async () => {
    const h = await harness();
    const lineItem = h.state.lineItems.list(main(h))[0];
    await h.call("PUT", `${base(h)}/line_items/${lineItem?.id}`, { query: { name: "Renamed" } });
    const res = await h.call("GET", `${base(h)}/account_history`, { query: { entity_type: "LINE_ITEM", entity_id: lineItem?.id, start_time: "2024-01-01T00:00:00Z", end_time: "2100-01-01T00:00:00Z" } });
    expect(res.body.data.map((e: { change_type: string }) => e.change_type)).toEqual(["CREATE", "UPDATE"]);
    expect(res.body.data[1].changes).toEqual({ name: "Renamed" });
  });

  it("line item curated categories are created, updated and read by id", async () => {
    const h = await harness();
    const lineItem = h.state.lineItems.list(main(h))[2];
    const [first, second] = [...h.state.curatedCategories.keys()];
    const made = await h.call("POST", `${base(h)}/line_item_curated_categories`, { query: { line_item_id: lineItem?.id, curated_category_id: first } });
    expect(made.status).toBe(200);
    const updated = await h.call("PUT", `${base(h)}/line_item_curated_categories/${made.body.data.id}`, { query: { curated_category_id: second } });
    expect(updated.body.data.curated_category_id).toBe(second);
    expect((await h.call("GET", `${base(h)}/line_item_curated_categories/${made.body.data.id}`)).body.data).toEqual(updated.body.data);
    expect((await h.call("POST", `${base(h)}/line_item_curated_categories`, { query: { line_item_id: "0", curated_category_id: first } })).status).toBe(400);
    expect((await h.call("GET", `${base(h)}/curated_categories/${first}`)).body.data.id).toBe(first);
  });

  it("x-unspecified operations (card update, audience estimate) answer 501", async () => {
    const h = await harness();
    const card = h.state.cards.list(main(h))[0];
    expect((await h.call("PUT", `${base(h)}/cards/${card?.id}`, { body: { name: "x" } })).status).toBe(501);
    expect((await h.call("POST", `${base(h)}/audience_estimate`, { body: [{}] })).status).toBe(501);
  });
});

describe("document 3 limits", () => {
  it.each([
    ["accounts page size above 1000", "GET", "/12/accounts", { count: 1001 }],
    ["account apps page size above 1000", "GET", "{base}/account_apps", { count: 1001 }],
    ["account media page size above 1000", "GET", "{base}/account_media", { count: 1001 }],
    ["cards page size above 200", "GET", "{base}/cards", { count: 201 }],
    ["poll cards page size above 1000", "GET", "{base}/cards/poll", { count: 1001 }],
    ["video conversation cards page size above 1000", "GET", "{base}/cards/video_conversation", { count: 1001 }],
    ["media library page size above 50", "GET", "{base}/media_library", { count: 51 }],
    ["a card name prefix q above 80 characters", "GET", "{base}/cards", { q: "x".repeat(81) }],
    ["more than 200 ids in account_media_ids", "GET", "{base}/account_media", { account_media_ids: Array.from({ length: 201 }, (_, i) => String(i)) }],
    ["a media library q above 255 characters", "GET", "{base}/media_library", { q: "x".repeat(256) }],
    ["a poll choice above 25 characters", "POST", "{base}/cards/poll", { name: "p", duration_in_minutes: 60, first_choice: "x".repeat(26), second_choice: "b" }],
    ["a poll duration under 5 minutes", "POST", "{base}/cards/poll", { name: "p", duration_in_minutes: 4, first_choice: "a", second_choice: "b" }],
    ["a poll duration above 10080 minutes", "POST", "{base}/cards/poll", { name: "p", duration_in_minutes: 10081, first_choice: "a", second_choice: "b" }],
    ["a CTA hashtag above 20 characters", "POST", "{base}/cards/video_conversation", { name: "v", media_key: "13_1", first_cta: `#${"x".repeat(21)}`, first_cta_post: "p", thank_you_text: "t", title: "t" }],
    ["a thank-you text above 23 characters", "POST", "{base}/cards/video_conversation", { name: "v", media_key: "13_1", first_cta: "#x", first_cta_post: "p", thank_you_text: "x".repeat(24), title: "t" }],
    ["an advertiser post name above 80 characters", "POST", "{base}/post", { as_user_id: 1, text: "t", name: "x".repeat(81) }],
    ["more than 4 media keys on an advertiser post", "POST", "{base}/post", { as_user_id: 1, media_keys: ["3_1", "3_2", "3_3", "3_4", "3_5"] }],
    ["a video_title above 70 characters", "POST", "{base}/post", { as_user_id: 1, text: "t", video_title: "x".repeat(71) }],
    ["a media library title above 70 characters", "POST", "{base}/media_library", { media_key: "13_5", title: "x".repeat(71) }],
  ] as const)("refuses %s with 400", async (_what, method, path, query) => {
    const h = await harness();
    const res = await h.call(method, path.replace("{base}", base(h)), { query });
    expect(res.status).toBe(400);
  });

  it("refuses a card name above 80 characters and a carousel of 7 media", async () => {
    const h = await harness();
    const details = { type: "DETAILS", title: "t", destination: { type: "WEBSITE", url: "https://x.example.com" } };
    const long = await h.call("POST", `${base(h)}/cards`, { body: { name: "x".repeat(81), components: [{ type: "MEDIA", media_key: "3_1" }, details] } });
    expect(long.status).toBe(400);
    const seven = await h.call("POST", `${base(h)}/cards`, { body: { name: "c", components: [{ type: "SWIPEABLE_MEDIA", media_keys: ["3_1", "3_2", "3_3", "3_4", "3_5", "3_6", "3_7"] }, details] } });
    expect(seven.status).toBe(400);
  });

  it("an advertiser post takes up to 4 images, or 1 GIF, or 1 video", async () => {
    const h = await harness();
    const as_user_id = Number(h.state.defaultUserId);
    expect((await h.call("POST", `${base(h)}/post`, { query: { as_user_id, media_keys: ["3_1", "3_2", "3_3", "3_4"] } })).status).toBe(200);
    expect((await h.call("POST", `${base(h)}/post`, { query: { as_user_id, media_keys: ["16_1"] } })).status).toBe(200);
    expect((await h.call("POST", `${base(h)}/post`, { query: { as_user_id, media_keys: ["7_1", "3_1"] } })).status).toBe(400);
    expect((await h.call("POST", `${base(h)}/post`, { query: { as_user_id, media_keys: ["16_1", "16_2"] } })).status).toBe(400);
  });

  it("limit: 200 with_total_count requests per 15 minutes on the account lists", async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = await harness({ now: () => now });
    for (let i = 0; i < 200; i++) expect((await h.call("GET", "/12/accounts", { query: { with_total_count: true } })).status).toBe(200);
    const refused = await h.call("GET", "/12/accounts", { query: { with_total_count: true } });
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ "x-rate-limit-limit": "200", "x-rate-limit-remaining": "0", "x-rate-limit-reset": String(Math.ceil((now + 15 * 60_000) / 1000)) });
    now += 15 * 60_000;
    expect((await h.call("GET", "/12/accounts", { query: { with_total_count: true } })).status).toBe(200);
  }, 30_000);
});
