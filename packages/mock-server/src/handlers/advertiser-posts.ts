/** Document 3, posts made for advertisers (legacy post format) and their names. */
import type { AdvertiserPost, AdvertiserPostDetails } from "@devplatform/ads-campaigns/types";
import type { AdsCampaignsHandlers } from "@devplatform/ads-campaigns/server";
import type { MockState } from "../store/state.js";
import { iso } from "../time.js";
import { adsError, invalid, notFound, one, withAccount } from "./ads-reply.js";
import { mediaFacts } from "./media.js";

/** Members the name-update (and GET) answer adds to the creation answer. */
const DETAIL_FIELDS = ["conversation_settings", "nullcast", "scheduled_status", "scheduled_at", "post_type", "full_text", "display_text_range", "post_id"] as const;

function creationView(details: AdvertiserPostDetails): AdvertiserPost {
  const out: Record<string, unknown> = { ...details };
  for (const field of DETAIL_FIELDS) delete out[field];
  return out as AdvertiserPost;
}

/** "Up to 4 images, or 1 GIF, or 1 video": undefined when the mix is allowed, else why not. */
function mediaMixProblem(kinds: readonly string[]): string | undefined {
  const gifs = kinds.filter((k) => k === "GIF").length;
  const videos = kinds.filter((k) => k === "VIDEO").length;
  if ((gifs > 0 || videos > 0) && kinds.length > 1) return "media_keys take up to 4 images, or 1 GIF, or 1 video";
  return undefined;
}

export function advertiserPostHandlers(state: MockState): Pick<AdsCampaignsHandlers, "createAdvertiserPost" | "updateAdvertiserPostName"> {
  return {
    createAdvertiserPost: withAccount(state, (input, ctx) => {
      const q = input.query;
      const asUserId = String(q.as_user_id);
      const author = state.users.get(asUserId);
      if (!author) return invalid(`as_user_id ${asUserId} is not a known user`, input);
      // The seeded advertiser has been granted access by every seeded user; others post only as themselves.
      if (asUserId !== ctx.user.id && ctx.user.id !== state.defaultUserId) {
        return adsError(403, "ACCESS_NOT_GRANTED", `user ${asUserId} has not granted the caller access`, input);
      }
      if (q.nullcast === false && asUserId !== ctx.user.id) return invalid("nullcast=false (an organic post) is allowed only for the authenticated user", input);
      const kinds: string[] = [];
      for (const key of q.media_keys ?? []) {
        const facts = mediaFacts(state, ctx.account.data.id, key);
        if (!facts) return invalid(`media_key ${key} is not in the media library`, input);
        kinds.push(facts.type);
      }
      const mix = mediaMixProblem(kinds);
      if (mix) return invalid(mix, input);
      if (q.card_uri !== undefined) {
        const cardId = q.card_uri.slice("card://".length);
        const accountId = ctx.account.data.id;
        const card = state.cards.get(accountId, cardId) ?? state.pollCards.get(accountId, cardId) ?? state.videoConversationCards.get(accountId, cardId);
        if (!card || card.deleted) return invalid(`card_uri ${q.card_uri} is not a card of this account`, input);
      }

      const idStr = state.ids.numeric("post", 0);
      const text = q.text ?? "";
      const created = iso(state.now());
      // The full user object is not shown by the contract; name and screen_name are the usual members.
      const fullUser = { id: Number(author.id), id_str: author.id, name: author.name, screen_name: author.username };
      const details: AdvertiserPostDetails = {
        id: Number(idStr),
        id_str: idStr,
        created_at: created,
        text,
        name: q.name ?? "",
        truncated: false,
        entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
        in_reply_to_post_id: null,
        in_reply_to_user_id: null,
        user: q.trim_user === true ? { id: fullUser.id, id_str: fullUser.id_str } : fullUser,
        geo: null,
        coordinates: null,
        place: null,
        contributors: null,
        repost_count: 0,
        favorite_count: 0,
        favorited: false,
        reposted: false,
        scopes: { followers: false },
        lang: "en",
        conversation_settings: q.conversation_settings ?? "EVERYONE",
        nullcast: q.nullcast ?? true,
        scheduled_status: null,
        scheduled_at: null,
        post_type: "PUBLISHED",
        full_text: text,
        display_text_range: [0, text.length],
        post_id: idStr,
      };
      state.advertiserPosts.set(idStr, { accountId: ctx.account.data.id, data: details });
      // The post exists on the platform too: the core lookup finds it.
      state.posts.set(idStr, {
        id: idStr,
        text,
        author_id: author.id,
        created_at: created,
        lang: "en",
        ...(q.media_keys && q.media_keys.length > 0 ? { attachments: { media_keys: [...q.media_keys] } } : {}),
      });
      // The creation answer leaves out conversation_settings and the other GET-only members.
      return one(input, creationView(details));
    }),

    updateAdvertiserPostName: withAccount(state, (input, ctx) => {
      const id = String(input.path.post_id);
      const record = state.advertiserPosts.get(id);
      if (!record || record.accountId !== ctx.account.data.id) return notFound("post", id, input);
      if (input.query.name !== undefined) record.data.name = input.query.name;
      return one(input, record.data);
    }),
  };
}
