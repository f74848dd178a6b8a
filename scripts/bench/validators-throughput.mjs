// Validations per second: the precompiled Product / 25-product batch validators against the same
// schemas compiled by ajv at run time with the same options. Prints JSON.
import { createRequire } from "node:module";
import { schemaValidators } from "@devplatform/ads-audiences/validators";
const require = createRequire(import.meta.url);
const { loadSpec, buildModel } = await import("../../generators/dist/index.js");
const { toJsonSchema } = await import("../../generators/dist/emit/validators/json-schema.js");
const { addRuleKeyword } = await import("../../generators/dist/rules/ajv-keyword.js");
const model = buildModel(await loadSpec(new URL("../../spec/ads-audiences.yaml", import.meta.url).pathname), "bench");
const root = { $id: "https://contractgen.invalid/schema.json", components: { schemas: Object.fromEntries(model.schemas.map((s) => [s.name, toJsonSchema(s.schema)])) } };
const Ajv2020 = require("ajv/dist/2020").default;
const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, inlineRefs: false });
require("ajv-formats").default(ajv);
addRuleKeyword(ajv);
ajv.addSchema(root);
const runtime = (name) => ajv.getSchema(`${root.$id}#/components/schemas/${name}`);

const product = {
  id: "SKU-1",
  title: "Linen shirt",
  description: "Shirt",
  availability: "in stock",
  condition: "new",
  price: "49.00 USD",
  link: "https://shop.example.com/p/1",
  image_link: "https://shop.example.com/i/1.jpg",
  brand: "Acme",
  inventory: 12,
  sale_price: "39.00 USD",
};
const batch = { products: Array.from({ length: 25 }, (_, i) => ({ ...product, id: `SKU-${i}` })) };

function rate(fn, data) {
  if (!fn(data)) throw new Error(`benchmark input is invalid: ${JSON.stringify(fn.errors)}`);
  let n = 0;
  const end = performance.now() + 400;
  while (performance.now() < end) for (let i = 0; i < 200; i++, n++) fn(data);
  return (n / 400) * 1000;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Alternate the two validators round by round, so a pause of the machine hits both alike.
function compare(a, b, data) {
  const as = [];
  const bs = [];
  for (let i = 0; i < 7; i++) {
    as.push(rate(a, data));
    bs.push(rate(b, data));
  }
  return { standalone: median(as), runtime: median(bs) };
}
const out = {
  product: compare(schemaValidators.ProductInput, runtime("ProductInput"), product),
  batch: compare(schemaValidators.ProductBatchRequest, runtime("ProductBatchRequest"), batch),
};
process.stdout.write(JSON.stringify(out));
