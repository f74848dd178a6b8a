/**
 * Document 3's handlers. updateCard, updateVideoConversationCard and getAudienceEstimate are left
 * out on purpose: the contract does not show their shapes, so the plugin answers them 501.
 */
import type { AdsCampaignsHandlers } from "@devplatform/ads-campaigns/server";
import type { MockState } from "../store/state.js";
import { advertiserPostHandlers } from "./advertiser-posts.js";
import { campaignHandlers } from "./campaigns.js";
import { creativeHandlers } from "./creatives.js";

export function adsCampaignsHandlers(state: MockState): Partial<AdsCampaignsHandlers> {
  return { ...creativeHandlers(state), ...advertiserPostHandlers(state), ...campaignHandlers(state) };
}
