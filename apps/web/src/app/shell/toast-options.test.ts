import { describe, expect, it } from "vitest";
import { toastsOverLimit } from "./toast-limit.ts";
import { MAX_VISIBLE_TOASTS, TOAST_OPTIONS, TOAST_POSITION } from "./toast-options.ts";

// The spec's numbers as literals: a wrong constant anywhere fails here.
describe("toast options", () => {
  it("show toasts top-center", () => {
    expect(TOAST_POSITION).toBe("top-center");
  });

  it("keep an error toast for 4 seconds", () => {
    expect(TOAST_OPTIONS.error?.duration).toBe(4000);
  });

  it("keep a success toast for 2 seconds", () => {
    expect(TOAST_OPTIONS.success?.duration).toBe(2000);
  });

  it("keep a blank toast for 4 seconds", () => {
    expect(TOAST_OPTIONS.blank?.duration).toBe(4000);
  });

  it("set no duration for every type, so a loading toast stays until dismissed", () => {
    expect(TOAST_OPTIONS.duration).toBeUndefined();
  });

  it("allow at most 20 toasts on screen", () => {
    expect(MAX_VISIBLE_TOASTS).toBe(20);
    const toasts = Array.from({ length: 21 }, (_, i) => ({ id: i, createdAt: i, visible: true }));
    expect(toastsOverLimit(toasts, MAX_VISIBLE_TOASTS).map((t) => t.id)).toEqual([0]);
  });
});
