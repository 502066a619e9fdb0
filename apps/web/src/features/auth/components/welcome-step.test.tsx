import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REFERRAL_CODE_KEY } from "../../../lib/referral-code.ts";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { AuthContext, type AuthContextValue } from "../hooks/use-auth.ts";
import { WelcomeStep } from "./welcome-step.tsx";

const FREE_KEY = "lbk_free-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

function freeKeyServer() {
  const bodies: unknown[] = [];
  server.use(
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.post("/api/auth/key/generate-free", async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ success: true, key: FREE_KEY });
    }),
  );
  return bodies;
}

const renderWelcome = (onImport = vi.fn()) => {
  const onGenerated = vi.fn();
  const auth = {
    state: { status: "anonymous" },
    saveSession: vi.fn(async () => {}),
    startSession: vi.fn(),
    logout: async () => {},
    getDeviceId: async () => "device-0001",
    retry: () => {},
  } satisfies AuthContextValue;
  renderInApp(
    <AuthContext.Provider value={auth}>
      <WelcomeStep onImport={onImport} onBuy={vi.fn()} onGenerated={onGenerated} />
    </AuthContext.Provider>,
  );
  return onGenerated;
};

afterEach(() => localStorage.clear());

describe("Get Free Access", () => {
  it("sends the remembered referral code with the free key request", async () => {
    localStorage.setItem(REFERRAL_CODE_KEY, "CATS");
    const bodies = freeKeyServer();
    const onGenerated = renderWelcome();
    fireEvent.click(screen.getByRole("button", { name: "Get Free Access" }));
    await vi.waitFor(() => expect(onGenerated).toHaveBeenCalledWith(FREE_KEY));

    expect(bodies).toEqual([
      { deviceId: "device-0001", userAgent: expect.any(String), referralCode: "CATS" },
    ]);
  });

  it("sends no code when none is remembered", async () => {
    const bodies = freeKeyServer();
    const onGenerated = renderWelcome();
    fireEvent.click(screen.getByRole("button", { name: "Get Free Access" }));
    await vi.waitFor(() => expect(onGenerated).toHaveBeenCalled());

    expect(bodies).toEqual([{ deviceId: "device-0001", userAgent: expect.any(String) }]);
  });

  it("shows the server's 409 words after the spec's text, with [import key] opening the import screen", async () => {
    server.use(
      http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
      http.post("/api/auth/key/generate-free", () =>
        HttpResponse.json(
          {
            success: false,
            error: "This device already has an access key. Import the key you already have.",
          },
          { status: 409 },
        ),
      ),
    );
    const onImport = vi.fn();
    const onGenerated = renderWelcome(onImport);
    fireEvent.click(screen.getByRole("button", { name: "Get Free Access" }));

    const refusal = await screen.findByTestId("free-key-refused");
    expect(refusal.textContent).toBe(
      "Failed to generate access key" +
        "This device already has an access key. Import the key you already have." +
        "[import key]",
    );
    fireEvent.click(screen.getByRole("button", { name: "[import key]" }));
    expect(onImport).toHaveBeenCalledOnce();
    expect(onGenerated).not.toHaveBeenCalled();
  });
});
