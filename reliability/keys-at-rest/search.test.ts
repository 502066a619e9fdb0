import { describe, expect, it } from "vitest";
import { findSecrets } from "./search.ts";

const KEY = `0x${"ab12".repeat(16)}`;

describe("searching for secrets at rest", () => {
  it("finds a private key written in upper case without its 0x", () => {
    const found = findSecrets(
      [{ name: "a log", content: `key=${"AB12".repeat(16)}` }],
      [{ what: "a key", value: KEY }],
    );
    expect(found).toEqual(["a key in a log"]);
  });

  it("finds a private key inside binary content", () => {
    const content = Buffer.concat([Buffer.from([0, 255, 7]), Buffer.from(KEY), Buffer.from([0])]);
    expect(findSecrets([{ name: "a page", content }], [{ what: "a key", value: KEY }])).toEqual([
      "a key in a page",
    ]);
  });

  it("finds an access key as it was handed out, and nothing where it is absent", () => {
    const secrets = [{ what: "an access key", value: "lbk_SecretValue123" }];
    expect(findSecrets([{ name: "a dump", content: "x lbk_SecretValue123 y" }], secrets)).toEqual([
      "an access key in a dump",
    ]);
    expect(findSecrets([{ name: "a dump", content: "lbk_Secret" }], secrets)).toEqual([]);
  });
});
