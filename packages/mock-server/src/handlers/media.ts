/**
 * What a media key stands for. The mock has no upload endpoint (document 1 leaves chunked upload
 * unshown), so a key the media library does not hold is read by its category prefix, as the
 * platform's keys carry it: 3 image, 16 GIF, 7 video, 13 promo video.
 */
import type { MediaType } from "@devplatform/ads-campaigns/types";
import { MEDIA_PREFIX } from "../seed.js";
import type { MockState } from "../store/state.js";

export interface MediaFacts {
  readonly type: MediaType;
  readonly category: string;
  /** In the account's media library (not deleted). */
  readonly inLibrary: boolean;
}

const BY_PREFIX: Readonly<Record<string, { type: MediaType; category: string }>> = {
  [MEDIA_PREFIX.image]: { type: "IMAGE", category: "POST_IMAGE" },
  [MEDIA_PREFIX.gif]: { type: "GIF", category: "POST_GIF" },
  [MEDIA_PREFIX.video]: { type: "VIDEO", category: "POST_VIDEO" },
  [MEDIA_PREFIX.promoVideo]: { type: "VIDEO", category: "PROMO_VIDEO" },
};

const KEY = /^(\d{1,3})_(\d{1,19})$/;

/** What a key's category prefix says, or undefined for a key that is not well formed. */
export function keyFacts(key: string): MediaFacts | undefined {
  const m = KEY.exec(key);
  const known = m ? BY_PREFIX[m[1] as string] : undefined;
  return known ? { ...known, inLibrary: false } : undefined;
}

/** Facts about a media key: from the account's library when it is there, else from its prefix. */
export function mediaFacts(state: MockState, accountId: string, key: string): MediaFacts | undefined {
  const item = state.mediaLibrary.get(accountId, key);
  if (item && !item.deleted) return { type: item.media_type, category: item.media_category, inLibrary: true };
  return keyFacts(key);
}

/** The numeric part of a media key (`13_1730…` → `1730…`). */
export function mediaId(key: string): string {
  return KEY.exec(key)?.[2] ?? key.replace(/[^0-9]/g, "").slice(0, 19);
}
