import type { SecurityVerifiers } from "@contractgen/runtime/server";

{{about}}export const security: SecurityVerifiers = {};
