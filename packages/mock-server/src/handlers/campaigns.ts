/**
 * Document 3, campaign structure: accounts and their apps, history, categories, features, line
 * items and line item curated categories.
 */
import type { AdsCampaignsHandlers } from "@devplatform/ads-campaigns/server";
import type { Account, LineItem, LineItemCuratedCategory } from "@devplatform/ads-campaigns/types";
import type { MockState } from "../store/state.js";
import { iso } from "../time.js";
import { openObject } from "../open-object.js";
import { adsError, byIds, echo, invalid, listReply, namePrefix, notFound, one, visible, withAccount, withUser } from "./ads-reply.js";

type CampaignHandlers = Pick<
  AdsCampaignsHandlers,
  | "listAccounts"
  | "createSandboxAccount"
  | "getAccount"
  | "updateAccount"
  | "deleteSandboxAccount"
  | "listAccountApps"
  | "listAccountHistory"
  | "listAdvertiserBusinessCategories"
  | "getCuratedCategory"
  | "listAccountFeatures"
  | "addSandboxAccountFeatures"
  | "updateLineItem"
  | "deleteLineItem"
  | "listLineItemCuratedCategories"
  | "createLineItemCuratedCategory"
  | "getLineItemCuratedCategory"
  | "updateLineItemCuratedCategory"
  | "deleteLineItemCuratedCategory"
>;

/** The line item updates that are plain copies onto the stored object. */
const COPIED = [
  "advertiser_domain",
  "advertiser_user_id",
  "android_app_store_identifier",
  "ios_app_store_identifier",
  "bid_amount_local_micro",
  "bid_strategy",
  "duration_in_days",
  "frequency_cap",
  "entity_status",
  "goal",
  "name",
  "pay_by",
  "total_budget_amount_local_micro",
  "daily_budget_amount_local_micro",
] as const;

export function campaignHandlers(state: MockState): CampaignHandlers {
  const sandboxOnly = (input: { path: object; query: object }) => adsError(400, "SANDBOX_ONLY", "this operation exists on the sandbox only, for accounts created there", input);

  /** A line item curated category's references must name live objects of this account. */
  const checkReferences = (accountId: string, lineItemId: string | undefined, categoryId: string | undefined): string | undefined => {
    if (lineItemId !== undefined) {
      const lineItem = state.lineItems.get(accountId, lineItemId);
      if (!lineItem || lineItem.deleted) return `line_item_id ${lineItemId} is not a line item of this account`;
    }
    if (categoryId !== undefined && !state.curatedCategories.has(categoryId)) return `curated_category_id ${categoryId} does not exist`;
    return undefined;
  };

  return {
    listAccounts: withUser(state, (input, ctx) => {
      const q = input.query;
      const mine = [...state.accounts.values()].filter((a) => a.userIds.includes(ctx.user.id)).map((a) => a.data);
      const rows = namePrefix(byIds(visible(mine, q.with_deleted), q.account_ids, (a) => a.id), q.q);
      return listReply(state, ctx, "listAccounts", input, rows, 200);
    }),

    createSandboxAccount: withUser(state, (input, ctx) => {
      const id = state.ids.numeric("account", 3);
      const now = iso(state.now());
      const data: Account = {
        id,
        name: "Sandbox account",
        business_name: "Sandbox business",
        business_id: state.ids.numeric("business", 4),
        timezone: "America/New_York",
        timezone_switch_at: now,
        industry_type: "OTHER",
        approval_status: "ACCEPTED",
        created_at: now,
        updated_at: now,
        deleted: false,
      };
      state.accounts.set(id, { data, userIds: [ctx.user.id], sandbox: true, features: new Set() });
      // The document shows the new account in an array.
      return one(input, [data]);
    }),

    getAccount: withAccount(state, (input, ctx) => one(input, ctx.account.data), { allowDeleted: (input) => input.query.with_deleted === true }),

    updateAccount: withAccount(state, (input, ctx) => {
      const data = ctx.account.data;
      if (input.query.name !== undefined) data.name = input.query.name;
      if (input.query.industry_type !== undefined) data.industry_type = input.query.industry_type;
      data.updated_at = iso(state.now());
      return one(input, data);
    }),

    deleteSandboxAccount: withAccount(state, (input, ctx) => {
      if (!ctx.account.sandbox) return sandboxOnly(input);
      ctx.account.data.deleted = true;
      ctx.account.data.updated_at = iso(state.now());
      return one(input, ctx.account.data);
    }),

    listAccountApps: withAccount(state, (input, ctx) => {
      const rows = visible(state.accountApps.list(ctx.account.data.id), input.query.with_deleted);
      return listReply(state, ctx, "listAccountApps", input, rows, 200);
    }),

    listAccountHistory: withAccount(state, (input, ctx) => {
      const q = input.query;
      const start = Date.parse(q.start_time);
      const end = Date.parse(q.end_time);
      if (end < start) return invalid("end_time must not be before start_time", input);
      const rows = state.accountHistory.list(ctx.account.data.id).filter((e) => {
        const t = Date.parse(e.change_time);
        return e.entity === q.entity_type && e.entity_id === q.entity_id && t >= start && t <= end && (q.user_id === undefined || e.change_by.user_id === String(q.user_id));
      });
      return listReply(state, ctx, "listAccountHistory", input, rows, 200);
    }),

    listAdvertiserBusinessCategories: withUser(state, (input) => ({ status: 200, body: { request: { params: echo(input) }, data: state.businessCategories, next_cursor: null } })),

    getCuratedCategory: withAccount(state, (input) => {
      const category = state.curatedCategories.get(input.path.curated_category_id);
      return category ? one(input, category) : notFound("curated category", input.path.curated_category_id, input);
    }),

    listAccountFeatures: withAccount(state, (input, ctx) => {
      const held = [...ctx.account.features];
      // Only features the account holds are returned, also when others are asked for.
      const wanted = input.query.feature_keys;
      return one(input, wanted === undefined ? held : held.filter((f) => (wanted as readonly string[]).includes(f)));
    }),

    addSandboxAccountFeatures: withAccount(state, (input, ctx) => {
      if (!ctx.account.sandbox) return sandboxOnly(input);
      for (const key of input.query.feature_keys) ctx.account.features.add(key);
      // "Updated features": all the account holds after the change (the document does not say which).
      return one(input, [...ctx.account.features]);
    }),

    updateLineItem: withAccount(state, (input, ctx) => {
      const accountId = ctx.account.data.id;
      const lineItem = state.lineItems.get(accountId, input.path.line_item_id);
      if (!lineItem || lineItem.deleted) return notFound("line item", input.path.line_item_id, input);
      const q = input.query;
      const daily = q.daily_budget_amount_local_micro ?? lineItem.daily_budget_amount_local_micro;
      const total = q.total_budget_amount_local_micro ?? lineItem.total_budget_amount_local_micro;
      if (daily !== undefined && daily > total) return invalid("daily_budget_amount_local_micro must be at most total_budget_amount_local_micro", input);
      const changes: Record<string, unknown> = {};
      const target = lineItem as unknown as Record<string, unknown>;
      for (const field of COPIED) {
        if (q[field] !== undefined && target[field] !== q[field]) {
          changes[field] = q[field];
          target[field] = q[field];
        }
      }
      if (q.start_time !== undefined) changes["start_time"] = lineItem.start_time = iso(Date.parse(q.start_time));
      if (q.end_time !== undefined) changes["end_time"] = lineItem.end_time = iso(Date.parse(q.end_time));
      // Typed as one string by the document; a comma-separated list is read as several categories.
      if (q.categories !== undefined) changes["categories"] = lineItem.categories = q.categories.split(",").map((c) => c.trim()).filter((c) => c !== "");
      const now = state.now();
      lineItem.updated_at = iso(now);
      if (Object.keys(changes).length > 0) {
        state.accountHistory.set(accountId, `${lineItem.id}:update:${now}:${state.ids.numeric("history", 7)}`, {
          entity: "LINE_ITEM",
          entity_id: lineItem.id,
          change_type: "UPDATE",
          change_time: iso(now),
          change_by: { user_id: ctx.user.id, platform: "Ads API" },
          changes: openObject(changes),
          entity_data: openObject({ ...lineItem }),
        });
      }
      return one(input, lineItem);
    }),

    deleteLineItem: withAccount(state, (input, ctx) => {
      const lineItem: LineItem | undefined = state.lineItems.get(ctx.account.data.id, input.path.line_item_id);
      // A deleted line item stays deleted: deleting it again answers 404.
      if (!lineItem || lineItem.deleted) return notFound("line item", input.path.line_item_id, input);
      lineItem.deleted = true;
      lineItem.updated_at = iso(state.now());
      // Deletes do not cascade: promoted posts and curated category links keep deleted=false.
      return one(input, lineItem);
    }),

    listLineItemCuratedCategories: withAccount(state, (input, ctx) => {
      const rows = visible(state.lineItemCuratedCategories.list(ctx.account.data.id), input.query.with_deleted);
      return listReply(state, ctx, "listLineItemCuratedCategories", input, rows, 200);
    }),

    createLineItemCuratedCategory: withAccount(state, (input, ctx) => {
      const accountId = ctx.account.data.id;
      const problem = checkReferences(accountId, input.query.line_item_id, input.query.curated_category_id);
      if (problem) return invalid(problem, input);
      const now = iso(state.now());
      const row: LineItemCuratedCategory = {
        id: state.ids.numeric("licc", 7),
        line_item_id: input.query.line_item_id,
        curated_category_id: input.query.curated_category_id,
        created_at: now,
        updated_at: now,
        deleted: false,
      };
      state.lineItemCuratedCategories.set(accountId, row.id, row);
      return one(input, row);
    }),

    getLineItemCuratedCategory: withAccount(state, (input, ctx) => {
      const row = state.lineItemCuratedCategories.get(ctx.account.data.id, input.path.line_item_curated_category_id);
      if (!row || (row.deleted && input.query.with_deleted !== true)) return notFound("line item curated category", input.path.line_item_curated_category_id, input);
      return one(input, row);
    }),

    updateLineItemCuratedCategory: withAccount(state, (input, ctx) => {
      const accountId = ctx.account.data.id;
      const row = state.lineItemCuratedCategories.get(accountId, input.path.line_item_curated_category_id);
      if (!row || row.deleted) return notFound("line item curated category", input.path.line_item_curated_category_id, input);
      const problem = checkReferences(accountId, input.query.line_item_id, input.query.curated_category_id);
      if (problem) return invalid(problem, input);
      if (input.query.line_item_id !== undefined) row.line_item_id = input.query.line_item_id;
      if (input.query.curated_category_id !== undefined) row.curated_category_id = input.query.curated_category_id;
      row.updated_at = iso(state.now());
      return one(input, row);
    }),

    deleteLineItemCuratedCategory: withAccount(state, (input, ctx) => {
      const row = state.lineItemCuratedCategories.get(ctx.account.data.id, input.path.line_item_curated_category_id);
      if (!row) return notFound("line item curated category", input.path.line_item_curated_category_id, input);
      if (!row.deleted) {
        row.deleted = true;
        row.updated_at = iso(state.now());
      }
      return one(input, row);
    }),
  };
}
