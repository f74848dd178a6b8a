/**
 * What the mock stores. Contract objects are kept exactly as the contract types them (so replies
 * need no mapping); the wrappers add only what the contract does not carry: owners, members, order.
 */
import type { Media, Post, User } from "@devplatform/core/types";
import type {
  DoNotReachList,
  Product,
  ProductCatalog,
  ProductSet,
  TailoredAudiencePermission,
} from "@devplatform/ads-audiences/types";
import type { Account, AdvertiserPostDetails, CampaignHistoryData } from "@devplatform/ads-campaigns/types";

export type { Media, Post, Product, ProductSet, TailoredAudiencePermission };

/** A platform user: the core User object with the members the mock always fills. */
export type MockUser = User & { readonly id: string; readonly name: string; readonly username: string };

export interface CatalogRecord {
  readonly data: ProductCatalog;
  readonly userId: string;
}

/** A product set; FILTERED sets keep `PROCESSING` until they are first read (see getProductSet). */
export interface ProductSetRecord {
  readonly data: ProductSet;
}

export interface TailoredAudienceRecord {
  readonly id: string;
  /** The account that owns the audience (`is_owner` on the audience, which the contract does not show). */
  readonly ownerAccountId: string;
}

export interface CustomAudienceRecord {
  readonly id: string;
  readonly accountId: string;
  /** Hashed user records, one key per user object. */
  readonly members: Set<string>;
}

export interface TargetingRecord {
  readonly campaignId: string;
  readonly lineItemIds: readonly string[];
}

export interface DoNotReachListRecord {
  readonly data: DoNotReachList;
  readonly members: Set<string>;
}

export interface AccountRecord {
  readonly data: Account;
  /** Users the account is associated with ("the account must be associated with the authenticated user"). */
  readonly userIds: readonly string[];
  /** Created through the sandbox: only such accounts may be deleted or given features. */
  readonly sandbox: boolean;
  readonly features: Set<string>;
}

export interface CampaignRecord {
  readonly id: string;
  readonly accountId: string;
  readonly data: CampaignHistoryData;
}

/** A promoted post of a line item. No operation shows them; the state table says what happens to them. */
export interface PromotedPostRecord {
  readonly id: string;
  readonly lineItemId: string;
  readonly postId: string;
  deleted: boolean;
}

export interface AdvertiserPostRecord {
  readonly accountId: string;
  /** The full post as the name-update answer shows it; the create answer leaves the extra fields out. */
  readonly data: AdvertiserPostDetails;
}

/** Pending or approved request token of the OAuth 1.0a flow. */
export interface RequestTokenRecord {
  readonly token: string;
  readonly secret: string;
  readonly consumerKey: string;
  readonly callback: string;
  verifier: string | undefined;
  userId: string | undefined;
}

export interface AccessTokenRecord {
  readonly token: string;
  readonly secret: string;
  readonly userId: string;
  invalidated: boolean;
}
