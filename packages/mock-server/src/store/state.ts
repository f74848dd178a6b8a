/**
 * The mock's whole world: every stored object, the token stores and the rate counters. Handlers
 * read and change it; tests may inspect it (for what no operation shows, like promoted posts).
 */
import type {
  AccountApp,
  AccountHistoryEntry,
  AccountMedia,
  AdvertiserBusinessCategory,
  Card,
  CuratedCategory,
  LegacyCard,
  LineItem,
  LineItemCuratedCategory,
  MediaLibraryObject,
  PollCard,
  VideoConversationCard,
} from "@devplatform/ads-campaigns/types";
import { TokenStore } from "../auth/tokens.js";
import { IdFactory } from "../ids.js";
import type { MockCredentials, MockLimits } from "../options.js";
import { createRandom, type Random } from "../random.js";
import { RateLimiter } from "../rate-limit.js";
import { MINUTE } from "../time.js";
import type {
  AccountRecord,
  AdvertiserPostRecord,
  CampaignRecord,
  CatalogRecord,
  CustomAudienceRecord,
  DoNotReachListRecord,
  Media,
  MockUser,
  Post,
  Product,
  ProductSetRecord,
  PromotedPostRecord,
  TailoredAudiencePermission,
  TailoredAudienceRecord,
  TargetingRecord,
} from "./records.js";
import { Scoped } from "./table.js";

export class MockState {
  readonly seed: number;
  readonly now: () => number;
  readonly credentials: MockCredentials;
  readonly limits: MockLimits;
  readonly ids: IdFactory;
  /** Generator for values made after seeding (tokens, verifiers), apart from the dataset's stream. */
  readonly random: Random;
  readonly rates: RateLimiter;
  readonly tokens: TokenStore;
  /** The user the fixed access token belongs to, and the default of the browser step. */
  readonly defaultUserId: string;

  // ---- document 1
  readonly users = new Map<string, MockUser>();
  readonly posts = new Map<string, Post>();
  readonly media = new Map<string, Media>();
  /** Webhook id → provisioned, for links made by createStreamLink. */
  readonly streamLinks = new Map<string, boolean>();

  // ---- document 2 (scopes: catalog id, audience id, account id)
  readonly catalogs = new Map<string, CatalogRecord>();
  readonly products = new Scoped<Product>();
  readonly productSets = new Scoped<ProductSetRecord>();
  readonly tailoredAudiences = new Map<string, TailoredAudienceRecord>();
  readonly permissions = new Scoped<TailoredAudiencePermission>();
  readonly customAudiences = new Map<string, CustomAudienceRecord>();
  /** Custom audience id → the campaigns and line items that target it. */
  readonly targeting = new Map<string, TargetingRecord[]>();
  readonly doNotReachLists = new Scoped<DoNotReachListRecord>();

  // ---- document 3 (scope: account id)
  readonly accounts = new Map<string, AccountRecord>();
  readonly accountMedia = new Scoped<AccountMedia>();
  readonly cards = new Scoped<Card>();
  readonly legacyCards = new Scoped<LegacyCard>();
  readonly mediaLibrary = new Scoped<MediaLibraryObject>();
  readonly pollCards = new Scoped<PollCard>();
  readonly videoConversationCards = new Scoped<VideoConversationCard>();
  readonly advertiserPosts = new Map<string, AdvertiserPostRecord>();
  readonly accountApps = new Scoped<AccountApp>();
  readonly accountHistory = new Scoped<AccountHistoryEntry>();
  readonly campaigns = new Map<string, CampaignRecord>();
  readonly lineItems = new Scoped<LineItem>();
  readonly promotedPosts = new Map<string, PromotedPostRecord>();
  readonly curatedCategories = new Map<string, CuratedCategory>();
  readonly lineItemCuratedCategories = new Scoped<LineItemCuratedCategory>();
  readonly businessCategories: AdvertiserBusinessCategory[] = [];

  constructor(init: { seed: number; now: () => number; credentials: MockCredentials; limits: MockLimits }) {
    this.seed = init.seed;
    this.now = init.now;
    this.credentials = init.credentials;
    this.limits = init.limits;
    this.ids = new IdFactory(init.seed);
    // The first id handed out, so the fixed credentials act for the same user under every dataset change.
    this.defaultUserId = this.ids.user();
    this.random = createRandom(init.seed).fork("runtime");
    this.rates = new RateLimiter(init.now);
    this.tokens = new TokenStore(this.random.fork("tokens"), {
      token: init.credentials.accessToken,
      secret: init.credentials.accessTokenSecret,
      userId: this.defaultUserId,
    });
  }

  /** The line item with this id in any account. */
  findLineItem(id: string): { accountId: string; lineItem: LineItem } | undefined {
    for (const [accountId, lineItem] of this.lineItems.entries()) if (lineItem.id === id) return { accountId, lineItem };
    return undefined;
  }

  /**
   * Whether a poll card still takes votes. A poll closes `duration_in_minutes` after its creation,
   * not after its first use in a post (document 3, States and transitions).
   */
  pollStatus(card: PollCard): "open" | "closed" {
    return this.now() < Date.parse(card.created_at) + card.duration_in_minutes * MINUTE ? "open" : "closed";
  }
}
