/**
 * Which member of an object a path parameter or a reference takes: one rule for the generator's
 * relations (which list gives a key) and the contract tests at run time (where an answer holds it).
 */

/**
 * The member of an object that a parameter named `name` takes: the member of that very name, else
 * the plain word the name ends with (`metadata_kind` → `kind`, `configSettingName` → `name`: a
 * resource keyed by something other than an id), else `id`, else (no id at all) `name`.
 */
export function keyMemberOf(name: string, members: readonly string[]): string | undefined {
  if (members.includes(name)) return name;
  const suffix = members
    // One plain word (`kind`, `name`, `path`): `line_item_curated_category_id` ends with
    // `curated_category_id` too, but that member names another resource, not this one.
    .filter((m) => /^[a-z]+$/.test(m) && m !== "id" && m.length < name.length && (name.endsWith(`_${m}`) || name.endsWith(`-${m}`) || name.endsWith(`${m.charAt(0).toUpperCase()}${m.slice(1)}`)))
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0];
  // An object with no id at all is known by its name (Jupyter's terminals: `terminal_id` takes `name`).
  return suffix ?? (members.includes("id") ? "id" : members.includes("name") ? "name" : undefined);
}
