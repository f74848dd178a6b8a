/**
 * Document 2: product catalogs, products, product sets, keyword insights, audience permissions,
 * targeting reports and membership batches.
 */
import type { AdsAudiencesHandlers } from "@devplatform/ads-audiences/server";
import type { ProductSetFilter } from "@devplatform/ads-audiences/types";
import { createRandom } from "../random.js";
import type { MockState } from "../store/state.js";
import { iso } from "../time.js";
import { adsError, byIds, echo, invalid, listReply, notFound, one, withAccount, withUser, type AdsContext, type EchoInput } from "./ads-reply.js";
import { membershipHandlers } from "./membership.js";
import { upsertProductBatch, type ProductInput } from "./products.js";

/** Keyword insights data points are capped at the 7-day range in hours. */
const MAX_POINTS = 7 * 24;
const RELATED = ["near me", "sale", "reviews", "best", "cheap", "online", "2025", "for kids", "outlet", "brands"];

export function adsAudiencesHandlers(state: MockState): AdsAudiencesHandlers {
  /** A catalog the user holds, or the reply that says why not. */
  const catalogOf = (catalogId: string, ctx: AdsContext, input: EchoInput) => {
    const catalog = state.catalogs.get(catalogId);
    if (!catalog || catalog.userId !== ctx.user.id) return { reply: notFound("product catalog", catalogId, input) } as const;
    return { catalog } as const;
  };

  return {
    listProductCatalogs: withUser(state, (input, { user }) => {
      const userId = input.query.user_id !== undefined ? String(input.query.user_id) : user.id;
      const data = [...state.catalogs.values()].filter((c) => c.userId === userId).map((c) => c.data);
      return { status: 200, body: { request: { params: echo(input) }, data, next_cursor: null } };
    }),

    createProductCatalog: withUser(state, (input, { user }) => {
      if (input.query.user_id !== undefined && String(input.query.user_id) !== user.id) {
        return adsError(403, "UNAUTHORIZED_USER", "a catalog can be created only for the authenticated user", input);
      }
      if ([...state.catalogs.values()].some((c) => c.userId === user.id)) {
        // Document 2: one catalog per user. Status and error are not shown; 409 says "conflicts with what exists".
        return adsError(409, "CATALOG_LIMIT_REACHED", "the user already holds a product catalog (one catalog per user)", input);
      }
      const id = state.ids.numeric("catalog", 8);
      const data = { id, name: input.query.name };
      state.catalogs.set(id, { data, userId: user.id });
      return one(input, data);
    }),

    updateProductCatalog: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      found.catalog.data.name = input.query.name;
      return one(input, found.catalog.data);
    }),

    deleteProductCatalog: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      // Permanent, no undo: the catalog goes with its products and sets.
      const id = found.catalog.data.id;
      state.catalogs.delete(id);
      state.products.drop(id);
      state.productSets.drop(id);
      return one(input, found.catalog.data);
    }),

    listProducts: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      // A product group is fetched as its first-submitted product only; insertion order is submission order.
      const seenGroups = new Set<string>();
      const rows = state.products.list(found.catalog.data.id).filter((p) => {
        if (p.item_group_id === null) return true;
        if (seenGroups.has(p.item_group_id)) return false;
        seenGroups.add(p.item_group_id);
        return true;
      });
      const key = input.query.item_group_key;
      const filtered = key === undefined ? rows : rows.filter((p) => p.item_group_key === key);
      return listReply(state, ctx, "listProducts", input, filtered, 100);
    }),

    upsertProducts: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      // Validated against the contract by the plugin; see ProductInput for why the cast is needed.
      const results = upsertProductBatch(state, found.catalog.data.id, input.body.products as readonly ProductInput[]);
      return one(input, { products_response: results });
    }),

    deleteProducts: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      const catalogId = found.catalog.data.id;
      const byKey = new Map(state.products.list(catalogId).map((p) => [p.product_key, p]));
      const delete_products = input.body.product_keys.map((key) => {
        const product = byKey.get(key);
        if (!product) return { product_key: key, failed_product_key: key, message: "Product not found" };
        // Permanent: the row is removed, not marked.
        state.products.delete(catalogId, product.id);
        byKey.delete(key);
        return { product_key: key, failed_product_key: null, message: null };
      });
      return one(input, { delete_products });
    }),

    createProductSet: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      const catalogId = found.catalog.data.id;
      const body = input.body;
      const id = state.ids.numeric("product_set", 8);
      if (body.type === "MANUAL") {
        const byKey = new Map(state.products.list(catalogId).map((p) => [p.product_key, p.id]));
        const unknown = (body.product_keys ?? []).filter((k) => !byKey.has(k));
        if (unknown.length > 0) return invalid(`product_keys not in this catalog: ${unknown.slice(0, 5).join(", ")}`, input);
        const product_ids = (body.product_keys ?? []).map((k) => byKey.get(k) as string);
        // Document 2: a MANUAL set is DONE at once and has no filters.
        const data = { id, name: body.name, description: body.description ?? null, type: "MANUAL" as const, product_ids, filters: [], processing_status: "DONE" as const };
        state.productSets.set(catalogId, id, { data });
        return one(input, data);
      }
      // FILTERED sets start PROCESSING (the document does not say with what); they are evaluated on first read.
      const data = { id, name: body.name, description: body.description ?? null, type: "FILTERED" as const, product_ids: [], filters: body.filters ?? [], processing_status: "PROCESSING" as const };
      state.productSets.set(catalogId, id, { data });
      return one(input, data);
    }),

    getProductSet: withUser(state, (input, ctx) => {
      const found = catalogOf(input.path.product_catalog_id, ctx, input);
      if ("reply" in found) return found.reply;
      const catalogId = found.catalog.data.id;
      const record = state.productSets.get(catalogId, input.path.product_set_id);
      if (!record) return notFound("product set", input.path.product_set_id, input);
      if (record.data.type === "FILTERED" && record.data.processing_status === "PROCESSING") {
        const matched = evaluateFilters(state.products.list(catalogId), record.data.filters);
        if (matched === undefined) record.data.processing_status = "FAILED";
        else {
          record.data.product_ids = matched;
          record.data.processing_status = "DONE";
        }
      }
      return one(input, record.data);
    }),

    searchKeywordInsights: withUser(state, (input) => {
      const q = input.query;
      const start = Date.parse(q.start_time);
      const end = q.end_time !== undefined ? Date.parse(q.end_time) : state.now();
      if (!(end > start)) return invalid("end_time must be later than start_time (end_time defaults to now)", input);
      const unit = q.granularity === "DAY" ? 86_400_000 : 3_600_000;
      const points = Math.min(MAX_POINTS, Math.ceil((end - start) / unit));
      // Same question, same answer: the numbers come from the keywords, not from the clock.
      const rng = createRandom(state.seed).fork(`insights:${q.keywords.join(",")}:${(q.negative_keywords ?? []).join(",")}`);
      const related: string[] = [];
      for (let i = 0; related.length < 30; i++) {
        const word = `${q.keywords[i % q.keywords.length] ?? "keyword"} ${RELATED[Math.floor(i / q.keywords.length) % RELATED.length] ?? ""}`.trim();
        related.push(i >= q.keywords.length * RELATED.length ? `${word} ${i}` : word);
      }
      const post_volume = Array.from({ length: points }, () => rng.int(0, 50_000));
      const params = { start_time: q.start_time, end_time: q.end_time ?? iso(end), granularity: q.granularity, keywords: q.keywords };
      return { status: 200, body: { request: { params }, data: { related_keywords: related, post_volume } } };
    }),

    listTailoredAudiencePermissions: withAccount(state, (input, ctx) => {
      const audience = state.tailoredAudiences.get(input.path.tailored_audience_id);
      const rows = audience ? state.permissions.list(audience.id) : [];
      const account = ctx.account.data.id;
      const visibleToAccount = audience !== undefined && (audience.ownerAccountId === account || rows.some((p) => p.granted_account_id === account && !p.deleted));
      if (!audience || !visibleToAccount) return notFound("tailored audience", input.path.tailored_audience_id, input);
      const q = input.query;
      // Deleted permissions are left out, except when asked for by id (then the final state shows).
      let list = q.tailored_audience_permission_ids !== undefined ? byIds(rows, q.tailored_audience_permission_ids, (p) => p.id) : rows.filter((p) => !p.deleted);
      if (q.granted_account_ids !== undefined) {
        const wanted = new Set(q.granted_account_ids);
        list = list.filter((p) => wanted.has(p.granted_account_id));
      }
      return listReply(state, ctx, "listTailoredAudiencePermissions", input, list, 200);
    }),

    createTailoredAudiencePermission: withAccount(state, (input, ctx) => {
      const audience = state.tailoredAudiences.get(input.path.tailored_audience_id);
      if (!audience) return notFound("tailored audience", input.path.tailored_audience_id, input);
      if (audience.ownerAccountId !== ctx.account.data.id) return adsError(403, "NOT_AUDIENCE_OWNER", "only the account that owns the audience can share it", input);
      const granted = state.accounts.get(input.query.granted_account_id);
      const sameBusiness = granted !== undefined && granted.data.business_id === ctx.account.data.business_id;
      if (!sameBusiness && !ctx.account.features.has("SHARE_AUDIENCE_OUTSIDE_BUSINESS")) {
        return adsError(403, "SHARE_OUTSIDE_BUSINESS_NOT_ALLOWED", "sharing outside the business needs the SHARE_AUDIENCE_OUTSIDE_BUSINESS feature", input);
      }
      const now = iso(state.now());
      const permission = {
        id: state.ids.numeric("permission", 4),
        tailored_audience_id: audience.id,
        granted_account_id: input.query.granted_account_id,
        permission_level: input.query.permission_level,
        created_at: now,
        updated_at: now,
        deleted: false,
      };
      state.permissions.set(audience.id, permission.id, permission);
      return one(input, permission);
    }),

    deleteTailoredAudiencePermission: withAccount(state, (input, ctx) => {
      const audience = state.tailoredAudiences.get(input.path.tailored_audience_id);
      if (!audience) return notFound("tailored audience", input.path.tailored_audience_id, input);
      if (audience.ownerAccountId !== ctx.account.data.id) return adsError(403, "NOT_AUDIENCE_OWNER", "only the account that owns the audience can revoke its permissions", input);
      const permission = state.permissions.get(audience.id, input.path.tailored_audience_permission_id);
      if (!permission) return notFound("permission", input.path.tailored_audience_permission_id, input);
      // Future campaigns of the granted account lose the audience; running ones are left alone.
      if (!permission.deleted) {
        permission.deleted = true;
        permission.updated_at = iso(state.now());
      }
      return one(input, permission);
    }),

    getCustomAudienceTargeting: withAccount(state, (input, ctx) => {
      const audience = state.customAudiences.get(input.path.custom_audience_id);
      if (!audience || audience.accountId !== ctx.account.data.id) return notFound("custom audience", input.path.custom_audience_id, input);
      const withActive = input.query.with_active ?? true;
      const entries = (state.targeting.get(audience.id) ?? []).flatMap((t) => {
        const campaign = state.campaigns.get(t.campaignId);
        const line_items = t.lineItemIds.flatMap((id) => {
          const lineItem = state.lineItems.get(audience.accountId, id);
          if (!lineItem) return [];
          // A line item serves while it is active and not deleted.
          const servable = lineItem.entity_status === "ACTIVE" && !lineItem.deleted;
          return withActive && !servable ? [] : [{ id, name: lineItem.name, servable }];
        });
        return campaign && line_items.length > 0 ? [{ campaign_id: t.campaignId, campaign_name: campaign.data.name, line_items }] : [];
      });
      return listReply(state, ctx, "getCustomAudienceTargeting", input, entries, 200);
    }),

    ...membershipHandlers(state),

    deleteDoNotReachList: withAccount(state, (input, ctx) => {
      const record = state.doNotReachLists.get(ctx.account.data.id, input.path.do_not_reach_list_id);
      if (!record) return notFound("do-not-reach list", input.path.do_not_reach_list_id, input);
      if (!record.data.deleted) {
        record.data.deleted = true;
        record.data.updated_at = iso(state.now());
      }
      // Returned with its final state, also on a repeated delete.
      return one(input, record.data);
    }),
  };
}

const NUMERIC_ATTRIBUTES = new Set(["price", "sale_price", "inventory"]);

/** The item ids matching every filter, or undefined when a filter cannot be evaluated (FAILED). */
function evaluateFilters(products: readonly import("../store/records.js").Product[], filters: readonly ProductSetFilter[]): string[] | undefined {
  const number = (v: unknown): number | undefined => {
    const n = typeof v === "number" ? v : typeof v === "string" ? Number.parseFloat(v) : Number.NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  for (const f of filters) {
    if ((f.operator === "GREATER_THAN" || f.operator === "LESS_THAN") && number(f.value) === undefined) return undefined;
  }
  return products
    .filter((p) =>
      filters.every((f) => {
        const raw: unknown = p[f.attribute];
        if (raw === null || raw === undefined) return f.operator === "NOT_CONTAINS";
        const text = String(raw);
        const value = String(f.value);
        switch (f.operator) {
          case "EQUAL_TO":
            return NUMERIC_ATTRIBUTES.has(f.attribute) ? number(raw) === number(f.value) : text === value;
          case "MATCH":
            return text.toLowerCase() === value.toLowerCase();
          case "CONTAINS":
            return text.toLowerCase().includes(value.toLowerCase());
          case "NOT_CONTAINS":
            return !text.toLowerCase().includes(value.toLowerCase());
          case "GREATER_THAN":
            return (number(raw) ?? Number.NaN) > (number(f.value) as number);
          case "LESS_THAN":
            return (number(raw) ?? Number.NaN) < (number(f.value) as number);
        }
      }),
    )
    .map((p) => p.id);
}
