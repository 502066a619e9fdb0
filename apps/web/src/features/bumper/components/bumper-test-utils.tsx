import { type Bumper, bumperTabOf } from "@bundler/shared";
import { fireEvent, screen, within } from "@testing-library/react";
import { type HttpHandler, HttpResponse, http } from "msw";
import { expect } from "vitest";
import {
  type BumperServerState,
  bumperReadHandlers,
  bumperWalletFixture,
} from "../../../testing/bumper-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp, settle } from "../../../testing/render.tsx";
import { BumperPage } from "./bumper-page.tsx";

/** A server holding `overrides` (no bumpers by default), priced at 600 USD a BNB. */
export const serverState = (overrides: Partial<BumperServerState> = {}): BumperServerState => ({
  bumpers: [],
  bumps: [],
  wallets: [bumperWalletFixture(0, { isActive: true })],
  price: 600,
  ...overrides,
});

/** The bumper page for a logged-in user over `state`, loaded; `overrides` win over its reads. */
export async function renderBumperPage(
  state: BumperServerState = serverState(),
  overrides: HttpHandler[] = [],
) {
  const { handlers, calls } = bumperReadHandlers(state);
  server.use(...handlers);
  server.use(...overrides);
  const rendered = renderInApp(<BumperPage />, { route: "/tools/bumper", authKey: "key-1" });
  await settle();
  await settle();
  return { ...rendered, calls };
}

/** Opens the list's tab for bumpers of `status` (stopped and completed ones sit under Completed). */
export async function openTabOf(status: Bumper["status"]) {
  if (bumperTabOf(status) === "active") return;
  fireEvent.click(screen.getByRole("tab", { name: /^Completed/ }));
  await settle();
}

/** Picks the list's `n`th bumper (from 0) under the tab on screen, and waits for its details. */
export async function selectBumper(n = 0) {
  const row = screen.getAllByTestId("bumper-row")[n];
  if (!row) throw new Error(`no bumper row ${n}`);
  fireEvent.click(row);
  await settle();
  await settle();
  expect(screen.getByTestId("bumper-address")).toBeTruthy();
}

export const press = (name: string | RegExp, scope: HTMLElement = document.body) =>
  fireEvent.click(within(scope).getByRole("button", { name }));

export const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

export const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** Records every body POSTed to `path` and answers `answer()`. */
export function postHandler(path: string, answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      const text = await request.text();
      bodies.push(text ? JSON.parse(text) : null);
      return answer();
    }),
  );
  return bodies;
}

export const refused = (error?: string) =>
  HttpResponse.json(error ? { success: false, error } : { success: false }, { status: 400 });
