import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { AuthContext, type AuthContextValue } from "../hooks/use-auth.ts";
import { encryptBackup } from "../utils/key-backup.ts";
import { ImportKeyStep } from "./import-key-step.tsx";

const KEY = "lbk_backed-up-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const PASSPHRASE = "correct horse battery";

/** The server knows KEY only; records what it was asked. */
function validateServer() {
  const asked: unknown[] = [];
  server.use(
    http.post("/api/auth/key/validate", async ({ request }) => {
      const { key } = (await request.json()) as { key: string };
      asked.push(key);
      return key === KEY
        ? HttpResponse.json({ success: true, role: "user" })
        : HttpResponse.json({ success: false, error: "Invalid access key" }, { status: 401 });
    }),
  );
  return asked;
}

function renderImport() {
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
      <ImportKeyStep onBack={vi.fn()} />
    </AuthContext.Provider>,
  );
  return auth;
}

/** A backup of KEY as the Account page makes it (fewer rounds, for speed). */
const backupFile = async (content?: string) =>
  new File(
    [
      content ??
        JSON.stringify(
          await encryptBackup({ accessKey: KEY, wallets: [] }, PASSPHRASE, { iterations: 1_000 }),
        ),
    ],
    "backup.json",
    { type: "application/json" },
  );

const importBackup = async (file: File, passphrase: string) => {
  fireEvent.change(screen.getByLabelText("Or a backup file"), { target: { files: [file] } });
  fireEvent.change(await screen.findByLabelText("Backup passphrase"), {
    target: { value: passphrase },
  });
  fireEvent.click(screen.getByRole("button", { name: "Import Key" }));
};

describe("importing a key from a backup file", () => {
  it("logs in with the key the file holds, once its passphrase opens it", async () => {
    const asked = validateServer();
    const auth = renderImport();
    await importBackup(await backupFile(), PASSPHRASE);

    await vi.waitFor(() =>
      expect(auth.startSession).toHaveBeenCalledWith({ key: KEY, role: "user" }),
    );
    expect(asked).toEqual([KEY]);
    expect(auth.saveSession).toHaveBeenCalledWith({ key: KEY, role: "user" });
  });

  it("says the passphrase is wrong, asks the server nothing and stays", async () => {
    const asked = validateServer();
    const auth = renderImport();
    await importBackup(await backupFile(), "not the passphrase");

    const problem = await screen.findByTestId("import-problem");
    expect(problem.textContent).toBe("Wrong passphrase: this backup cannot be opened with it");
    expect(asked).toEqual([]);
    expect(auth.startSession).not.toHaveBeenCalled();
  });

  it("says a file that is not a backup is not one", async () => {
    validateServer();
    renderImport();
    await importBackup(await backupFile('[{"address":"0x1","privateKey":"0x2"}]'), PASSPHRASE);

    expect((await screen.findByTestId("import-problem")).textContent).toBe(
      "This file is not a Launch Bundler backup",
    );
  });
});
