// @ts-check
/**
 * The mutant catalogue: realistic bugs a team implementing the three documents would make, each an
 * exact edit of packages/mock-server. One file per API; types in catalogue.d.mts.
 */
import { coreMutants } from "./catalogue/core.mjs";
import { audiencesMutants } from "./catalogue/ads-audiences.mjs";
import { campaignsMutants } from "./catalogue/ads-campaigns.mjs";

/** @type {readonly import("./catalogue.d.mts").Mutant[]} */
export const mutants = [...coreMutants, ...audiencesMutants, ...campaignsMutants];
