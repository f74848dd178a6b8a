/**
 * Field selection of document 1 for post lookups: default fields unless `*.fields` asks for more,
 * related objects in `includes` only when `expansions` names them.
 */
import type { Includes, Media, Post, User } from "@devplatform/core/types";
import type { MockState } from "../store/state.js";

const POST_DEFAULTS = ["id", "text"] as const;
const MEDIA_DEFAULTS = ["media_key", "type"] as const;
// The document does not name default user fields; these are the ones every user object has here.
const USER_DEFAULTS = ["id", "name", "username"] as const;

/** Only the named members of `source` (missing ones are left out, not nulled). */
function pick<T extends object>(source: T, fields: Iterable<string>): Partial<T> {
  const out: Partial<T> = {};
  for (const field of fields) {
    // `source` holds only contract members, so an own-property check keeps inherited names out.
    if (Object.prototype.hasOwnProperty.call(source, field)) (out as Record<string, unknown>)[field] = (source as Record<string, unknown>)[field];
  }
  return out;
}

export interface Selection {
  readonly postFields?: readonly string[];
  readonly userFields?: readonly string[];
  readonly mediaFields?: readonly string[];
  readonly expansions?: readonly string[];
}

export function selectPost(post: Post, fields: readonly string[] | undefined): Post {
  return { ...pick(post, [...(fields ?? []), ...POST_DEFAULTS]), id: post.id, text: post.text };
}

/** Posts with the requested fields, and `includes` for the expansions the mock knows. */
export function selectPosts(state: MockState, posts: readonly Post[], selection: Selection): { data: Post[]; includes?: Includes } {
  const data = posts.map((p) => selectPost(p, selection.postFields));
  const expansions = new Set(selection.expansions ?? []);
  const includes: Includes = {};
  if (expansions.has("attachments.media_keys")) {
    const media: Media[] = [];
    for (const post of posts)
      for (const key of post.attachments?.media_keys ?? []) {
        const found = state.media.get(key);
        if (found) media.push({ ...pick(found, [...(selection.mediaFields ?? []), ...MEDIA_DEFAULTS]), media_key: found.media_key, type: found.type });
      }
    if (media.length > 0) includes.media = media;
  }
  if (expansions.has("author_id")) {
    const users: User[] = [];
    const seen = new Set<string>();
    for (const post of posts) {
      const user = post.author_id !== undefined ? state.users.get(post.author_id) : undefined;
      if (user && !seen.has(user.id)) {
        seen.add(user.id);
        users.push(pick(user, [...(selection.userFields ?? []), ...USER_DEFAULTS]));
      }
    }
    if (users.length > 0) includes.users = users;
  }
  if (expansions.has("referenced_posts.id")) {
    const referenced: Post[] = [];
    for (const post of posts)
      for (const ref of post.referenced_posts ?? []) {
        const found = ref.id !== undefined ? state.posts.get(ref.id) : undefined;
        if (found) referenced.push(selectPost(found, selection.postFields));
      }
    if (referenced.length > 0) includes.posts = referenced;
  }
  return Object.keys(includes).length > 0 ? { data, includes } : { data };
}
