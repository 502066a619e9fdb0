import { DRAFTS_PAGE_SIZE, type Draft, type DraftSummary } from "@bundler/shared";
import { HttpResponse, http } from "msw";

/**
 * `GET /api/draft/list` as the server pages it (9 a page, `?page=N`, 1 by default) over
 * whatever `drafts()` holds when asked; `asked` records every page requested.
 */
export function draftsListHandler(drafts: () => DraftSummary[]) {
  const asked: number[] = [];
  const handler = http.get("/api/draft/list", ({ request }) => {
    const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
    asked.push(page);
    const all = drafts();
    return HttpResponse.json({
      success: true,
      drafts: all.slice((page - 1) * DRAFTS_PAGE_SIZE, page * DRAFTS_PAGE_SIZE),
      total: all.length,
      page,
      pageSize: DRAFTS_PAGE_SIZE,
    });
  });
  return { handler, asked };
}

/** `GET /api/draft/:id` answering `draft()` for its id (404 for any other); counts calls. */
export function draftHandler(draft: () => Draft) {
  const state = { calls: 0 };
  const handler = http.get("/api/draft/:id", ({ params }) => {
    const current = draft();
    if (params.id !== current._id)
      return HttpResponse.json({ success: false, error: "Draft not found" }, { status: 404 });
    state.calls += 1;
    return HttpResponse.json({ success: true, draft: current });
  });
  return { handler, state };
}

/**
 * `GET /api/draft/:id/payment/status` answering `status()` as the draft's status for `id` (404
 * for any other): what the Bundle Terminal polls. Counts calls.
 */
export function draftStatusHandler(id: string, status: () => Draft["status"]) {
  const state = { calls: 0 };
  const handler = http.get("/api/draft/:id/payment/status", ({ params }) => {
    if (params.id !== id)
      return HttpResponse.json({ success: false, error: "Draft not found" }, { status: 404 });
    state.calls += 1;
    const current = status();
    return HttpResponse.json({
      success: true,
      isPaid: ["paid", "executing", "executed"].includes(current),
      status: current,
      received: "0.5",
      expiresAt: null,
    });
  });
  return { handler, state };
}
