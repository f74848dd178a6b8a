/**
 * Rows for response rules of spec/ads-audiences.yaml kept in their own file (one per contract, so that work on
 * one contract's rules never touches another's); the test joins them with the rows beside it.
 */
import type { Row } from "../response-rules-support.js";

export const rows: Row[] = [];
