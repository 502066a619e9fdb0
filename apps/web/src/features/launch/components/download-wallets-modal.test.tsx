import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BundleWallet } from "../utils/launch-form.ts";
import { DownloadWalletsModal } from "./download-wallets-modal.tsx";

const WALLETS: BundleWallet[] = [
  { address: "0x2222222222222222222222222222222222222222", privateKey: "0x22", buyValue: "0.01" },
  { address: "0x3333333333333333333333333333333333333333", privateKey: "0x33", buyValue: "0.02" },
];

/** Catches the file the modal hands to the browser (jsdom saves nothing). */
function catchDownloads() {
  const files: Blob[] = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    files.push(blob as Blob);
    return "blob:wallets";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
  return files;
}

/** jsdom's Blob has no text(); FileReader reads it. */
const readText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

afterEach(() => {
  vi.restoreAllMocks();
});

const close = () => screen.getByRole("button", { name: "[close]" }) as HTMLButtonElement;

describe("the download-wallets modal", () => {
  it("cannot be closed before the wallets are downloaded", () => {
    const onClose = vi.fn();
    render(<DownloadWalletsModal wallets={WALLETS} onClose={onClose} />);

    expect(close().disabled).toBe(true);
    fireEvent.click(close());
    expect(onClose).not.toHaveBeenCalled();
  });

  it("saves every wallet's address and key as JSON", async () => {
    const files = catchDownloads();
    render(<DownloadWalletsModal wallets={WALLETS} onClose={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Download Wallets" }));

    expect(files).toHaveLength(1);
    expect(JSON.parse(await readText(files[0] as Blob))).toEqual(
      WALLETS.map(({ address, privateKey }) => ({ address, privateKey })),
    );
  });

  it("closes after the wallets are downloaded", () => {
    catchDownloads();
    const onClose = vi.fn();
    render(<DownloadWalletsModal wallets={WALLETS} onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Download Wallets" }));

    expect(close().disabled).toBe(false);
    fireEvent.click(close());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
