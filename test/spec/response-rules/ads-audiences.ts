/**
 * Rows for response rules of spec/ads-audiences.yaml kept in their own file (one per contract, so that work on
 * one contract's rules never touches another's); the test joins them with the rows beside it.
 */
import { equalsRow, exchange, holding, type Row } from "../response-rules-support.js";

export const rows: Row[] = [
  {
    rule: "catalogs-list-at-most-one",
    keeps: holding({ "/body/data": [{ id: "1", name: "Spring collection" }] }),
    breaks: holding({
      "/body/data": [
        { id: "1", name: "Spring collection" },
        { id: "2", name: "Second collection" },
      ],
    }),
  },
  {
    rule: "products-group-key-lists-one",
    keeps: holding({ "/request/query/item_group_key": "15", "/body/data": [{ id: "SKU-1", item_group_key: "15" }] }),
    // Every variant of the group listed, not only the first-submitted one.
    breaks: holding({
      "/request/query/item_group_key": "15",
      "/body/data": [
        { id: "SKU-1", item_group_key: "15" },
        { id: "SKU-2", item_group_key: "15" },
      ],
    }),
  },
  {
    rule: "products-grouped-have-group-key",
    keeps: holding({
      "/body/data": [
        { id: "SKU-1", item_group_id: "SHIRT", item_group_key: "1516" },
        { id: "SKU-3", item_group_id: null, item_group_key: null },
      ],
    }),
    // A variant of a group listed without the group identifier the service generates.
    breaks: holding({ "/body/data": [{ id: "SKU-1", item_group_id: "SHIRT", item_group_key: null }] }),
  },
  {
    rule: "product-delete-one-per-key",
    keeps: exchange(
      { body: { product_keys: ["1", "2"] } },
      {
        data: {
          delete_products: [
            { product_key: "1", failed_product_key: null, message: null },
            { product_key: "2", failed_product_key: "2", message: "Product not found" },
          ],
        },
      },
    ),
    // The unknown key left out of the answer.
    breaks: exchange({ body: { product_keys: ["1", "2"] } }, { data: { delete_products: [{ product_key: "1", failed_product_key: null, message: null }] } }),
  },
  {
    rule: "product-delete-failure-has-message",
    keeps: holding({
      "/body/data/delete_products": [
        { product_key: "1", failed_product_key: null, message: null },
        { product_key: "2", failed_product_key: "2", message: "Product not found" },
      ],
    }),
    // A failed deletion that does not say why.
    breaks: holding({ "/body/data/delete_products": [{ product_key: "2", failed_product_key: "2", message: null }] }),
  },
  equalsRow("product-set-create-keeps-description", "/body/data/description", "/request/body/description", "Discounted summer items", "Summer items"),
  {
    rule: "manual-set-read-done",
    keeps: holding({ "/body/data": { id: "16", type: "MANUAL", processing_status: "DONE", filters: [] } }),
    breaks: holding({ "/body/data": { id: "16", type: "MANUAL", processing_status: "PROCESSING", filters: [] } }),
  },
  {
    rule: "do-not-reach-counts-equal",
    keeps: holding({
      "/body/data": [
        { success_count: 2, total_count: 2 },
        { success_count: 1, total_count: 1 },
      ],
    }),
    breaks: holding({
      "/body/data": [
        { success_count: 2, total_count: 2 },
        { success_count: 0, total_count: 1 },
      ],
    }),
  },
  ...["catalogs-list-no-total-count", "products-list-no-total-count", "targeting-no-total-count"].map((rule) => ({
    rule,
    keeps: holding({ "/body/data": [], "/body/next_cursor": null }),
    breaks: holding({ "/body/data": [], "/body/next_cursor": null, "/body/total_count": 0 }),
  })),
  {
    rule: "products-response-stored-have-keys",
    keeps: holding({
      "/body/data/products_response": [
        { id: "SKU-1", product_key: "1516", status: "CREATE_SUCCESS", warnings: [], errors: [] },
        { id: "SKU-2", product_key: "", status: "ERROR", warnings: [], errors: [{ message: "duplicate id" }] },
      ],
    }),
    // A created product answered without the key the service generated for it.
    breaks: holding({ "/body/data/products_response": [{ id: "SKU-1", product_key: "", status: "CREATE_SUCCESS", warnings: [], errors: [] }] }),
  },
  {
    rule: "products-response-error-says-why",
    keeps: holding({
      "/body/data/products_response": [
        { id: "SKU-1", product_key: "1516", status: "CREATE_SUCCESS", warnings: [], errors: [] },
        { id: "SKU-2", product_key: "", status: "ERROR", warnings: [], errors: [{ message: "duplicate id" }] },
      ],
    }),
    // A product refused without saying why.
    breaks: holding({ "/body/data/products_response": [{ id: "SKU-2", product_key: "", status: "ERROR", warnings: [], errors: [] }] }),
  },
  {
    rule: "permissions-total-count-only-when-asked",
    keeps: exchange({ query: { with_total_count: true } }, { data: [], next_cursor: null, total_count: 0 }),
    // total_count added to a list that did not ask for it.
    breaks: exchange({ query: {} }, { data: [], next_cursor: null, total_count: 0 }),
  },
];
