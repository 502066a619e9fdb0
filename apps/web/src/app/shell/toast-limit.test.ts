import { describe, expect, it } from "vitest";
import { toastsOverLimit } from "./toast-limit.ts";

const toast = (id: string, createdAt: number, visible = true) => ({ id, createdAt, visible });

describe("toastsOverLimit", () => {
  it("dismisses nothing at or under the limit", () => {
    expect(toastsOverLimit([toast("a", 1), toast("b", 2)], 2)).toEqual([]);
  });

  it("dismisses the oldest toasts beyond the limit", () => {
    const toasts = [toast("new", 3), toast("old", 1), toast("mid", 2)];
    expect(toastsOverLimit(toasts, 2).map((t) => t.id)).toEqual(["old"]);
  });

  it("does not count toasts that are already leaving", () => {
    const toasts = [toast("a", 1, false), toast("b", 2), toast("c", 3)];
    expect(toastsOverLimit(toasts, 2)).toEqual([]);
  });
});
