import { describe, expect, it } from "vitest";
import { pageFromParam, pageNumbers, pageRange, paginate } from "./pagination.ts";

const list = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("paginate", () => {
  it("cuts pages of the given size", () => {
    expect(paginate(list(10), 1, 9)).toEqual({
      items: list(9),
      page: 1,
      pageCount: 2,
      from: 1,
      to: 9,
      total: 10,
    });
    expect(paginate(list(10), 2, 9)).toMatchObject({ items: [10], page: 2, from: 10, to: 10 });
  });

  it("keeps one empty page for an empty list", () => {
    expect(paginate([], 1, 9)).toEqual({
      items: [],
      page: 1,
      pageCount: 1,
      from: 0,
      to: 0,
      total: 0,
    });
  });

  it("clamps a page out of range to the nearest real page", () => {
    expect(paginate(list(9), 2, 9)).toMatchObject({ page: 1, items: list(9) });
    expect(paginate(list(20), 0, 9)).toMatchObject({ page: 1 });
    expect(paginate(list(20), Number.NaN, 9)).toMatchObject({ page: 1 });
    expect(paginate(list(20), 99, 9)).toMatchObject({ page: 3, items: [19, 20] });
  });

  it("covers every item exactly once across its pages", () => {
    for (const total of [0, 1, 8, 9, 10, 27, 28]) {
      const { pageCount } = paginate(list(total), 1, 9);
      const seen = pageNumbers(pageCount).flatMap((p) => paginate(list(total), p, 9).items);
      expect(seen).toEqual(list(total));
    }
  });
});

describe("pageNumbers", () => {
  it("lists 1..n", () => {
    expect(pageNumbers(3)).toEqual([1, 2, 3]);
    expect(pageNumbers(0)).toEqual([]);
  });
});

describe("pageRange", () => {
  it("places a server's page in the whole list", () => {
    expect(pageRange({ page: 1, pageSize: 9, total: 11, shown: 9 })).toEqual({
      from: 1,
      to: 9,
      pageCount: 2,
    });
    expect(pageRange({ page: 2, pageSize: 9, total: 11, shown: 2 })).toEqual({
      from: 10,
      to: 11,
      pageCount: 2,
    });
  });

  it("says 0-0 for an empty page and keeps one page for an empty list", () => {
    expect(pageRange({ page: 1, pageSize: 9, total: 0, shown: 0 })).toEqual({
      from: 0,
      to: 0,
      pageCount: 1,
    });
  });
});

describe("pageFromParam", () => {
  it("reads a whole number from 1, anything else as page 1", () => {
    expect(pageFromParam("3")).toBe(3);
    for (const value of [null, "", "0", "-2", "1.5", "abc", "2e3", "99999999999999999999"])
      expect(pageFromParam(value), String(value)).toBe(1);
  });
});
