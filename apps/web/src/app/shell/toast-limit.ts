/** The visible toasts beyond `limit`, oldest first: the ones to dismiss. */
export function toastsOverLimit<T extends { visible: boolean; createdAt: number }>(
  toasts: readonly T[],
  limit: number,
): T[] {
  const visible = toasts.filter((t) => t.visible).sort((a, b) => a.createdAt - b.createdAt);
  return visible.slice(0, Math.max(0, visible.length - limit));
}
