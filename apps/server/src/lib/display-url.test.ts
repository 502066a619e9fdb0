import { describe, expect, it } from "vitest";
import { displayUrl } from "./display-url.ts";

describe("displayUrl", () => {
  it("keeps scheme, host and port", () => {
    expect(displayUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
  });

  it("drops an API key in the path", () => {
    expect(displayUrl("https://bsc.example.com/v1/0123456789abcdef")).toBe(
      "https://bsc.example.com",
    );
  });

  it("drops the query and the fragment", () => {
    expect(displayUrl("https://rpc.example/?apikey=secret#x")).toBe("https://rpc.example");
  });

  it("drops user name and password", () => {
    expect(displayUrl("https://user:secret@rpc.example:8443/path")).toBe(
      "https://rpc.example:8443",
    );
  });

  it("prints nothing of a value it cannot parse", () => {
    expect(displayUrl("not a url with secret")).toBe("(unparsable URL)");
  });
});
