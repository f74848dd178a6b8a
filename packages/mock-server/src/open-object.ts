/**
 * The contracts have open objects (`type: object` without properties: echoed request parameters,
 * history `changes` and `entity_data`). openapi-typescript types those as `Record<string, never>`,
 * which no value with members satisfies, so values are handed over through this one cast.
 */
export type OpenObject = Record<string, never>;

export function openObject(value: object): OpenObject {
  return value as OpenObject;
}
