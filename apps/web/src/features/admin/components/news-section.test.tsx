import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { adminServer } from "../../../testing/admin-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp, toastTexts } from "../../../testing/render.tsx";
import { NewsSection } from "./news-section.tsx";

const open = () => {
  const admin = adminServer();
  server.use(...admin.handlers);
  renderInApp(<NewsSection />, { route: "/admin", authKey: "lbk_admin", role: "admin" });
  return admin.state;
};

const rows = () => screen.getAllByTestId("news-row");
const type = (label: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

describe("the news on the admin dashboard", () => {
  it("lists every item, hidden ones too, saying which are shown", async () => {
    open();
    await screen.findAllByTestId("news-row");
    expect(rows().map((row) => within(row).getByText(/^(shown|hidden)$/).textContent)).toEqual([
      "shown",
      "hidden",
    ]);
  });

  it("publishes an item with its label and color, and lists it", async () => {
    const state = open();
    await screen.findAllByTestId("news-row");
    type("News text", "Maintenance at 02:00 UTC.");
    type("Label", "Ops");
    type("Label color", "#22c55e");
    fireEvent.click(screen.getByRole("button", { name: "[publish]" }));

    await vi.waitFor(() => expect(toastTexts()).toContain("News published"));
    expect(state.newsWrites).toEqual([
      {
        method: "POST",
        id: null,
        body: { content: "Maintenance at 02:00 UTC.", label: "Ops", labelColor: "#22c55e" },
      },
    ]);
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByText("Maintenance at 02:00 UTC.")).toBeTruthy();
  });

  it("hides a shown item from the banner", async () => {
    const state = open();
    const [first] = await screen.findAllByTestId("news-row");
    fireEvent.click(within(first as HTMLElement).getByRole("button", { name: "[hide]" }));

    await vi.waitFor(() => expect(toastTexts()).toContain("News hidden from the banner"));
    expect(state.newsWrites).toEqual([
      { method: "PUT visibility", id: "news-1", body: { active: false } },
    ]);
    await vi.waitFor(() =>
      expect(within(rows()[0] as HTMLElement).getByText("hidden")).toBeTruthy(),
    );
  });

  it("edits an item's text in place", async () => {
    const state = open();
    const [first] = await screen.findAllByTestId("news-row");
    fireEvent.click(within(first as HTMLElement).getByRole("button", { name: "[edit]" }));
    const row = rows()[0] as HTMLElement;
    type("News text", "Corrected text.", row);
    fireEvent.click(within(row).getByRole("button", { name: "[save]" }));

    await vi.waitFor(() => expect(toastTexts()).toContain("News updated"));
    expect(state.newsWrites[0]).toMatchObject({
      method: "PUT",
      id: "news-1",
      body: { content: "Corrected text.", label: "INFO" },
    });
    await screen.findByText("Corrected text.");
  });

  it("says publishing failed, then the server's reason", async () => {
    open();
    server.use(
      http.post("/api/admin/dashboard/news", () =>
        HttpResponse.json({ success: false, error: "Please enter the news text" }, { status: 400 }),
      ),
    );
    await screen.findAllByTestId("news-row");
    fireEvent.click(screen.getByRole("button", { name: "[publish]" }));
    await vi.waitFor(() =>
      expect(toastTexts()).toContain("Failed to publish the news: Please enter the news text"),
    );
  });
});
