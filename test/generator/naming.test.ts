import { describe, expect, it } from "vitest";
import { camelCase, kebabCase, operationNameFromPath, pascalCase, uniqueNames } from "../../generators/src/model/naming.js";

describe("naming", () => {
  it.each([
    { given: "getPostsByIds", camel: "getPostsByIds", pascal: "GetPostsByIds" },
    { given: "get-posts by.ids", camel: "getPostsByIds", pascal: "GetPostsByIds" },
    { given: "delete", camel: "delete_", pascal: "Delete" },
    { given: "class", camel: "class_", pascal: "Class" },
    { given: "constructor", camel: "constructor", pascal: "Constructor" },
    { given: "__proto__", camel: "proto", pascal: "Proto" },
    { given: "1st-thing", camel: "_1stThing", pascal: "_1stThing" },
    { given: "ünïcödé name", camel: "unicodeName", pascal: "UnicodeName" },
    { given: '"quoted" `tick` */ ${x}', camel: "quotedTickX", pascal: "QuotedTickX" },
    { given: "", camel: "unnamed", pascal: "Unnamed" },
  ])("$given → $camel / $pascal", ({ given, camel, pascal }) => {
    expect(camelCase(given)).toBe(camel);
    expect(pascalCase(given)).toBe(pascal);
  });

  it("names operations without an operationId from method and path", () => {
    expect(operationNameFromPath("get", "/users/{id}/posts")).toBe("getUsersByIdPosts");
    expect(operationNameFromPath("delete", "/")).toBe("delete_");
  });

  it("keeps the first name and numbers later clashes, in input order", () => {
    expect(uniqueNames(["a", "A", "a"], (x) => pascalCase(x))).toEqual(["A", "A2", "A3"]);
    expect(uniqueNames(["raw"], (x) => x, ["raw"])).toEqual(["raw2"]);
  });

  it("makes npm-safe folder names", () => {
    expect(kebabCase("Ads Audiences")).toBe("ads-audiences");
    expect(kebabCase("***")).toBe("api");
  });
});
