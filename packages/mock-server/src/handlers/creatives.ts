/**
 * Document 3, creatives: account media, cards, the media library, poll cards and video
 * conversation cards. Deletion is soft; deleted objects show only where `with_deleted=true` is given.
 */
import type { AdsCampaignsHandlers } from "@devplatform/ads-campaigns/server";
import type { AccountMedia, Card, CardComponent, CardType, LegacyCard, MediaLibraryObject, PollCard, VideoConversationCard } from "@devplatform/ads-campaigns/types";
import type { MockState } from "../store/state.js";
import { MINUTE, iso } from "../time.js";
import { adsError, byIds, invalid, listReply, namePrefix, notFound, one, visible, withAccount } from "./ads-reply.js";
import { keyFacts, mediaFacts, mediaId } from "./media.js";

type CreativeHandlers = Pick<
  AdsCampaignsHandlers,
  | "listAccountMedia"
  | "getAccountMedia"
  | "deleteAccountMedia"
  | "listCards"
  | "createCard"
  | "getCard"
  | "deleteLegacyCard"
  | "listMediaLibrary"
  | "createMediaLibraryItem"
  | "getMediaLibraryItem"
  | "updateMediaLibraryItem"
  | "deleteMediaLibraryItem"
  | "listPollCards"
  | "createPollCard"
  | "getPollCard"
  | "listVideoConversationCards"
  | "createVideoConversationCard"
  | "getVideoConversationCard"
>;

/** Marks a row deleted (once) and stamps the change. */
function softDelete<T extends { deleted: boolean; updated_at?: string }>(state: MockState, row: T): T {
  if (!row.deleted) {
    row.deleted = true;
    row.updated_at = iso(state.now());
  }
  return row;
}

/** Poll and video conversation cards carry legacy card types; listCards shows them as legacy cards. */
function asLegacy(card: PollCard | VideoConversationCard | LegacyCard): LegacyCard {
  const out: LegacyCard = { id: card.id, card_type: card.card_type, deleted: card.deleted };
  if (card.name !== undefined) out.name = card.name;
  if (card.card_uri !== undefined) out.card_uri = card.card_uri;
  if (card.created_at !== undefined) out.created_at = card.created_at;
  if (card.updated_at !== undefined) out.updated_at = card.updated_at;
  return out;
}

type CardShape = { readonly ok: true; readonly type: CardType; readonly components: CardComponent[] } | { readonly ok: false; readonly message: string };

/** The card type a composition makes, from its media kinds and its destination. */
function cardShape(state: MockState, accountId: string, components: readonly CardComponent[] | undefined, slides: readonly (readonly CardComponent[])[] | undefined): CardShape {
  const kindsOf = (list: readonly CardComponent[]): { kinds: Set<"image" | "video">; swipeable: boolean; destination: "WEBSITE" | "APP" } | string => {
    const kinds = new Set<"image" | "video">();
    let swipeable = false;
    let destination: "WEBSITE" | "APP" = "WEBSITE";
    for (const c of list) {
      const keys = c.type === "MEDIA" ? [c.media_key] : c.type === "SWIPEABLE_MEDIA" ? c.media_keys : [];
      if (c.type === "SWIPEABLE_MEDIA") swipeable = true;
      if (c.type === "BUTTON") destination = "APP";
      for (const key of keys) {
        const facts = mediaFacts(state, accountId, key);
        if (!facts) return `media_key ${key} is not in the media library`;
        kinds.add(facts.type === "VIDEO" ? "video" : "image");
      }
    }
    return { kinds, swipeable, destination };
  };
  const prefix = (kinds: Set<"image" | "video">): "IMAGE" | "VIDEO" | "MIXED_MEDIA" => (kinds.size > 1 ? "MIXED_MEDIA" : kinds.has("video") ? "VIDEO" : "IMAGE");

  if (components) {
    const k = kindsOf(components);
    if (typeof k === "string") return { ok: false, message: k };
    const media = prefix(k.kinds);
    const type = (k.swipeable ? (media === "MIXED_MEDIA" ? `MIXED_MEDIA_SINGLE_DEST_CAROUSEL_${k.destination}` : `${media}_CAROUSEL_${k.destination}`) : `${media === "VIDEO" ? "VIDEO" : "IMAGE"}_${k.destination}`) as CardType;
    return { ok: true, type, components: [...components] };
  }
  const all = new Set<"image" | "video">();
  for (const slide of slides ?? []) {
    const k = kindsOf(slide);
    if (typeof k === "string") return { ok: false, message: k };
    // Multi-destination carousels exist only with website destinations.
    if (k.destination === "APP") return { ok: false, message: "slides take DETAILS (website) components; multi-destination carousels have no app variant" };
    for (const kind of k.kinds) all.add(kind);
  }
  // How slides appear in `components` is not shown; the mock lists them slide after slide.
  return { ok: true, type: `${prefix(all)}_MULTI_DEST_CAROUSEL_WEBSITE` as CardType, components: (slides ?? []).flatMap((s) => [...s]) };
}

export function creativeHandlers(state: MockState): CreativeHandlers {
  const account = (ctx: { account: { data: { id: string } } }): string => ctx.account.data.id;

  return {
    listAccountMedia: withAccount(state, (input, ctx) => {
      const q = input.query;
      let rows = byIds(visible(state.accountMedia.list(account(ctx)), q.with_deleted), q.account_media_ids, (r) => r.id);
      if (q.creative_types !== undefined) {
        const types = new Set<string>(q.creative_types);
        rows = rows.filter((r) => types.has(r.creative_type));
      }
      return listReply(state, ctx, "listAccountMedia", input, rows, 200);
    }),

    getAccountMedia: withAccount(state, (input, ctx) => {
      const row = state.accountMedia.get(account(ctx), input.path.account_media_id);
      if (!row || (row.deleted && input.query.with_deleted !== true)) return notFound("account media", input.path.account_media_id, input);
      return one(input, row);
    }),

    deleteAccountMedia: withAccount(state, (input, ctx) => {
      const row = state.accountMedia.get(account(ctx), input.path.account_media_id);
      if (!row) return notFound("account media", input.path.account_media_id, input);
      return one(input, softDelete(state, row));
    }),

    listCards: withAccount(state, (input, ctx) => {
      const q = input.query;
      const id = account(ctx);
      let rows: (Card | LegacyCard)[] = visible(state.cards.list(id), q.with_deleted);
      if (q.card_types !== undefined) {
        const types = new Set<string>(q.card_types);
        rows = rows.filter((r) => types.has(r.card_type));
      } else if (q.include_legacy_cards === true) {
        const legacy = [...state.legacyCards.list(id), ...state.pollCards.list(id), ...state.videoConversationCards.list(id)].map(asLegacy);
        rows = [...rows, ...visible(legacy, q.with_deleted)];
      }
      rows = byIds(rows, q.card_id, (r) => r.id);
      if (q.card_uris !== undefined) {
        const uris = new Set(q.card_uris);
        rows = rows.filter((r) => r.card_uri !== undefined && uris.has(r.card_uri));
      }
      return listReply(state, ctx, "listCards", input, namePrefix(rows, q.q), 100);
    }),

    createCard: withAccount(state, (input, ctx) => {
      const shape = cardShape(state, account(ctx), input.body.components, input.body.slides);
      if (!shape.ok) return invalid(shape.message, input);
      const id = state.ids.numeric("card", 6);
      const now = iso(state.now());
      const card: Card = { id, name: input.body.name, card_uri: `card://${id}`, card_type: shape.type, components: shape.components, created_at: now, updated_at: now, deleted: false };
      state.cards.set(account(ctx), id, card);
      return one(input, card);
    }),

    getCard: withAccount(state, (input, ctx) => {
      const card = state.cards.get(account(ctx), input.path.card_id);
      if (!card || (card.deleted && input.query.with_deleted !== true)) return notFound("card", input.path.card_id, input);
      // The document shows this answer wrapped in a one-element array.
      return one(input, [card]);
    }),

    deleteLegacyCard: withAccount(state, (input, ctx) => {
      const id = account(ctx);
      const wanted = input.path.card_type.toUpperCase();
      const card = [state.legacyCards, state.pollCards, state.videoConversationCards].map((t) => t.get(id, input.path.card_id)).find((c) => c !== undefined);
      if (!card || card.card_type !== wanted) return notFound(`card of type ${input.path.card_type}`, input.path.card_id, input);
      return one(input, asLegacy(softDelete(state, card)));
    }),

    listMediaLibrary: withAccount(state, (input, ctx) => {
      const q = input.query;
      let rows = visible(state.mediaLibrary.list(account(ctx)), false);
      if (q.media_type !== undefined) rows = rows.filter((r) => r.media_type === q.media_type);
      if (q.q !== undefined) {
        const needle = q.q.toLowerCase();
        rows = rows.filter((r) => [r.name, r.title, r.file_name, r.description].some((v) => typeof v === "string" && v.toLowerCase().includes(needle)));
      }
      return listReply(state, ctx, "listMediaLibrary", input, rows, 20);
    }),

    createMediaLibraryItem: withAccount(state, (input, ctx) => {
      const q = input.query;
      const id = account(ctx);
      const existing = state.mediaLibrary.get(id, q.media_key);
      if (existing && !existing.deleted) return adsError(409, "DUPLICATE_MEDIA", `media_key ${q.media_key} is already in the media library`, input);
      // A new library object comes from an upload, which the key's category prefix describes.
      const facts = keyFacts(q.media_key);
      if (!facts) return invalid(`media_key ${q.media_key} is not the key of an upload made with a media category`, input);
      const video = facts.type === "VIDEO";
      if (!video && (q.title !== undefined || q.description !== undefined || q.poster_media_key !== undefined)) {
        return invalid("title, description and poster_media_key apply to videos only", input);
      }
      const numeric = mediaId(q.media_key);
      const ext = facts.type === "GIF" ? "gif" : video ? "mp4" : "jpg";
      const now = iso(state.now());
      const item: MediaLibraryObject = {
        media_key: q.media_key,
        media_type: facts.type,
        media_category: facts.category,
        media_status: "TRANSCODE_COMPLETED",
        media_url: `https://${video ? "video" : "media"}.example.com/ads/${numeric}.${ext}`,
        name: q.name ?? null,
        file_name: q.file_name ?? `${numeric}.${ext}`,
        aspect_ratio: video ? "16:9" : facts.type === "GIF" ? "1:1" : "1.91:1",
        posted: false,
        created_at: now,
        updated_at: now,
        deleted: false,
      };
      if (video) {
        if (q.title !== undefined) item.title = q.title;
        if (q.description !== undefined) item.description = q.description;
        // The poster defaults to the first frame.
        item.poster_media_url = q.poster_media_key !== undefined ? `https://media.example.com/ads/${mediaId(q.poster_media_key)}.jpg` : `https://media.example.com/ads/${numeric}-frame0.jpg`;
        if (q.poster_media_key !== undefined) item.poster_media_key = q.poster_media_key;
        item.duration = 15_000;
      }
      state.mediaLibrary.set(id, item.media_key, item);
      if (facts.category === "PROMO_VIDEO") {
        // Document 3: a PROMO_VIDEO in the library also becomes a PREROLL account media object, automatically.
        const media: AccountMedia = { id: state.ids.numeric("account_media", 5), video_id: numeric, media_url: null, creative_type: "PREROLL", created_at: now, updated_at: now, deleted: false };
        state.accountMedia.set(id, media.id, media);
      }
      return one(input, item);
    }),

    getMediaLibraryItem: withAccount(state, (input, ctx) => {
      const item = state.mediaLibrary.get(account(ctx), input.path.media_key);
      // No with_deleted here, so a deleted object stays hidden.
      if (!item || item.deleted) return notFound("media library object", input.path.media_key, input);
      return one(input, item);
    }),

    updateMediaLibraryItem: withAccount(state, (input, ctx) => {
      const item = state.mediaLibrary.get(account(ctx), input.path.media_key);
      if (!item || item.deleted) return notFound("media library object", input.path.media_key, input);
      const q = input.query;
      if (item.media_type !== "VIDEO" && (q.title !== undefined || q.description !== undefined || q.poster_media_key !== undefined)) {
        return invalid("title, description and poster_media_key apply to videos only", input);
      }
      if (q.name !== undefined) item.name = q.name;
      if (q.file_name !== undefined) item.file_name = q.file_name;
      if (q.title !== undefined) item.title = q.title;
      if (q.description !== undefined) item.description = q.description;
      if (q.poster_media_key !== undefined) {
        item.poster_media_key = q.poster_media_key;
        item.poster_media_url = `https://media.example.com/ads/${mediaId(q.poster_media_key)}.jpg`;
      }
      item.updated_at = iso(state.now());
      return one(input, item);
    }),

    deleteMediaLibraryItem: withAccount(state, (input, ctx) => {
      const item = state.mediaLibrary.get(account(ctx), input.path.media_key);
      if (!item) return notFound("media library object", input.path.media_key, input);
      return one(input, softDelete(state, item));
    }),

    listPollCards: withAccount(state, (input, ctx) => {
      const q = input.query;
      const rows = namePrefix(byIds(visible(state.pollCards.list(account(ctx)), q.with_deleted), q.card_ids, (r) => r.id), q.q);
      return listReply(state, ctx, "listPollCards", input, rows, 200);
    }),

    createPollCard: withAccount(state, (input, ctx) => {
      const q = input.query;
      const id = account(ctx);
      const cardId = state.ids.numeric("card", 6);
      const created = state.now();
      const poll: PollCard = {
        id: cardId,
        name: q.name,
        card_uri: `card://${cardId}`,
        card_type: "TEXT_POLLS",
        first_choice: q.first_choice,
        second_choice: q.second_choice,
        duration_in_minutes: q.duration_in_minutes,
        // The poll opens at creation and closes duration_in_minutes later, whether or not a post uses it.
        start_time: iso(created),
        end_time: iso(created + q.duration_in_minutes * MINUTE),
        created_at: iso(created),
        updated_at: iso(created),
        deleted: false,
      };
      if (q.third_choice !== undefined) poll.third_choice = q.third_choice;
      if (q.fourth_choice !== undefined) poll.fourth_choice = q.fourth_choice;
      if (q.media_key !== undefined) {
        if (!ctx.account.features.has("PROMOTED_MEDIA_POLLS")) return adsError(403, "FEATURE_REQUIRED", "media polls need the PROMOTED_MEDIA_POLLS account feature", input);
        const item = state.mediaLibrary.get(id, q.media_key);
        if (!item || item.deleted) return invalid(`media_key ${q.media_key} is not in the media library`, input);
        // The contract's poll card types are TEXT_POLLS and VIDEO_POLLS only: an image poll has no type to answer with.
        if (item.media_type !== "VIDEO") return invalid("media polls take a video here: the contract has no card type for image polls", input);
        Object.assign(poll, {
          card_type: "VIDEO_POLLS",
          video_url: item.media_url,
          video_hls_url: item.media_url.replace(/\.mp4$/, ".m3u8"),
          video_width: 1280,
          video_height: 720,
          video_poster_url: item.poster_media_url ?? item.media_url.replace(/\.mp4$/, "-frame0.jpg"),
          video_poster_width: 1280,
          video_poster_height: 720,
          content_duration_seconds: (item.duration ?? 0) / 1000,
        });
      }
      state.pollCards.set(id, cardId, poll);
      return one(input, poll);
    }),

    getPollCard: withAccount(state, (input, ctx) => {
      const poll = state.pollCards.get(account(ctx), input.path.card_id);
      if (!poll || (poll.deleted && input.query.with_deleted !== true)) return notFound("poll card", input.path.card_id, input);
      return one(input, poll);
    }),

    listVideoConversationCards: withAccount(state, (input, ctx) => {
      const q = input.query;
      const rows = namePrefix(byIds(visible(state.videoConversationCards.list(account(ctx)), q.with_deleted), q.card_ids, (r) => r.id), q.q);
      return listReply(state, ctx, "listVideoConversationCards", input, rows, 200);
    }),

    createVideoConversationCard: withAccount(state, (input, ctx) => {
      const q = input.query;
      const id = account(ctx);
      const video = state.mediaLibrary.get(id, q.media_key);
      if (!video || video.deleted || video.media_type !== "VIDEO") return invalid(`media_key ${q.media_key} is not a video in the media library`, input);
      for (const key of [q.poster_media_key, q.unlocked_image_media_key, q.unlocked_video_media_key]) {
        if (key !== undefined && !state.mediaLibrary.get(id, key)) return invalid(`media_key ${key} is not in the media library`, input);
      }
      const cardId = state.ids.numeric("card", 6);
      const now = iso(state.now());
      const card: VideoConversationCard = {
        id: cardId,
        name: q.name,
        card_uri: `card://${cardId}`,
        card_type: "VIDEO_CONVERSATION",
        first_cta: q.first_cta,
        first_cta_post: q.first_cta_post,
        thank_you_text: q.thank_you_text,
        media_key: q.media_key,
        media_url: video.media_url,
        poster_media_url: q.poster_media_key !== undefined ? `https://media.example.com/ads/${mediaId(q.poster_media_key)}.jpg` : (video.poster_media_url ?? video.media_url.replace(/\.mp4$/, "-frame0.jpg")),
        video_owner_id: ctx.user.id,
        video_width: 1280,
        video_height: 720,
        created_at: now,
        updated_at: now,
        deleted: false,
      };
      // Optional members appear only when given; the unlocked media keys are write-only.
      const optional = ["title", "second_cta", "second_cta_post", "third_cta", "third_cta_post", "fourth_cta", "fourth_cta_post"] as const;
      for (const field of optional) if (q[field] !== undefined) card[field] = q[field];
      state.videoConversationCards.set(id, cardId, card);
      return one(input, card);
    }),

    getVideoConversationCard: withAccount(state, (input, ctx) => {
      const card = state.videoConversationCards.get(account(ctx), input.path.card_id);
      if (!card || (card.deleted && input.query.with_deleted !== true)) return notFound("video conversation card", input.path.card_id, input);
      return one(input, card);
    }),
  };
}
