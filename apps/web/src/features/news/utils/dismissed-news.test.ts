import type { NewsItem } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { parseDismissedIds, visibleNews, withDismissed } from "./dismissed-news.ts";

const item = (id: string): NewsItem => ({
  id,
  content: `news ${id}`,
  label: "new",
  labelColor: "#f0b90b",
  date: "2025-01-01",
});

describe("visibleNews", () => {
  it("shows every item when nothing was dismissed", () => {
    expect(visibleNews([item("a"), item("b")], [])).toEqual([item("a"), item("b")]);
  });

  it("hides dismissed items and keeps the order of the rest", () => {
    expect(visibleNews([item("a"), item("b"), item("c")], ["b"])).toEqual([item("a"), item("c")]);
  });

  it("ignores dismissed ids that no longer exist", () => {
    expect(visibleNews([item("a")], ["gone"])).toEqual([item("a")]);
  });

  it("shows nothing when everything was dismissed", () => {
    expect(visibleNews([item("a")], ["a"])).toEqual([]);
  });
});

describe("parseDismissedIds", () => {
  it("reads nothing dismissed when the key is absent", () => {
    expect(parseDismissedIds(null)).toEqual([]);
  });

  it("reads a stored JSON array of ids", () => {
    expect(parseDismissedIds('["a","b"]')).toEqual(["a", "b"]);
  });

  it("treats corrupt storage as nothing dismissed", () => {
    expect(parseDismissedIds("{not json")).toEqual([]);
    expect(parseDismissedIds('{"a":1}')).toEqual([]);
  });

  it("drops entries that are not strings", () => {
    expect(parseDismissedIds('["a",1,null]')).toEqual(["a"]);
  });
});

describe("withDismissed", () => {
  it("adds a newly dismissed id", () => {
    expect(withDismissed(["a"], "b")).toEqual(["a", "b"]);
  });

  it("does not add the same id twice", () => {
    expect(withDismissed(["a"], "a")).toEqual(["a"]);
  });
});
