import { plural } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useAutoImportParam } from "../hooks/use-auto-import-param.ts";
import { useBundlerWallets } from "../hooks/use-bundler-wallets.ts";
import { useDispersal } from "../hooks/use-dispersal.ts";
import { useWalletRows } from "../hooks/use-wallet-rows.ts";
import {
  prepareDispersal,
  sendableRows,
  summarizeDispersal,
  undeliveredRow,
} from "../utils/dispersal-form.ts";
import { type MarkedRow, markedRowOf } from "../utils/marked-row.ts";
import { isWalletFileName, parseWalletFile, WALLET_FILE_ERRORS } from "../utils/wallet-file.ts";
import { DispersalDialog } from "./dispersal-dialog.tsx";
import { DispersalHistory } from "./dispersal-history.tsx";
import { DispersalSettings } from "./dispersal-settings.tsx";
import { DispersalSummary } from "./dispersal-summary.tsx";
import { WalletRowsSection } from "./wallet-rows-section.tsx";

/** SPEC Disperser: pay many wallets from one payment, optionally through anti bubblemaps chains. */
export function DisperserPage() {
  const { authKey } = useAuth();
  const config = usePublicConfig();
  const rows = useWalletRows();
  const bundler = useBundlerWallets();
  // What a dispersal paid leaves the grid: a second click must not pay it again.
  const dispersal = useDispersal(authKey, {
    onDelivered: (delivered) => rows.retain(undeliveredRow(delivered.chains)),
  });
  const [buffer, setBuffer] = useState("");
  const [antiBubblemaps, setAntiBubblemaps] = useState(true);
  const [confirmCancel, setConfirmCancel] = useState(false);
  // The row a refused dispersal names, shown until the grid changes.
  const [refusal, setRefusal] = useState<{ row: MarkedRow; grid: unknown } | null>(null);
  const marked = refusal?.grid === rows.rows ? refusal.row : null;

  const importBundlerWallets = () => {
    if (bundler.status === "none") return;
    if (bundler.status === "error") return void toast.error(bundler.error);
    rows.replace(bundler.wallets.map((w) => ({ address: w.address, amount: w.buyValue })));
    toast.success(`Imported ${plural(bundler.wallets.length, "bundler wallet")}`);
  };
  useAutoImportParam(importBundlerWallets);

  const upload = async (file: File) => {
    if (!isWalletFileName(file.name)) return void toast.error(WALLET_FILE_ERRORS.type);
    const wallets = parseWalletFile(await file.text());
    if (wallets.length === 0) return void toast.error(WALLET_FILE_ERRORS.empty);
    rows.replace(wallets);
    toast.success(`Loaded ${plural(wallets.length, "wallet")} from ${file.name}`);
  };

  const create = () => {
    if (dispersal.creating) return;
    const prepared = prepareDispersal(rows.rows, buffer, antiBubblemaps);
    if (!prepared.ok) return void toast.error(prepared.error);
    const grid = rows.rows;
    void dispersal.create(prepared.body).then((error) => {
      const row = markedRowOf(error, sendableRows(grid));
      setRefusal(row ? { row, grid } : null);
    });
  };

  const cancel = async () => {
    await dispersal.cancel();
    setConfirmCancel(false);
  };

  return (
    <ContentLayout title="Disperser">
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-6 lg:self-start">
          <WalletRowsSection
            rows={rows.rows}
            buffer={buffer}
            marked={marked}
            canImport={bundler.status !== "none"}
            onAdd={rows.add}
            onRemove={rows.remove}
            onChange={rows.update}
            onUpload={(file) => void upload(file)}
            onImport={importBundlerWallets}
          />
          <DispersalHistory />
        </div>
        <aside className="flex flex-col gap-6 lg:sticky lg:top-20 lg:self-start">
          <DispersalSummary summary={summarizeDispersal(rows.rows, buffer)} />
          <DispersalSettings
            buffer={buffer}
            antiBubblemaps={antiBubblemaps}
            onBufferChange={setBuffer}
            onAntiBubblemapsChange={setAntiBubblemaps}
          />
          <div className="flex flex-wrap gap-3">
            {dispersal.exists ? (
              <>
                <Button variant="secondary" onClick={() => setConfirmCancel(true)}>
                  [cancel dispersal]
                </Button>
                <Button onClick={dispersal.show}>[view dispersal]</Button>
              </>
            ) : (
              <Button
                className="min-w-48"
                busy={dispersal.creating}
                busyLabel="creating..."
                onClick={create}
              >
                [create dispersal]
              </Button>
            )}
          </div>
        </aside>
      </div>

      {dispersal.open && (
        <DispersalDialog
          dispersal={dispersal.dispersal}
          view={dispersal.view}
          lines={dispersal.lines}
          explorerUrl={config.data?.explorerUrl ?? null}
          cancelling={dispersal.cancelling}
          onFunded={dispersal.refresh}
          onCancel={() => setConfirmCancel(true)}
          onClose={dispersal.close}
        />
      )}
      {confirmCancel && (
        <ConfirmDialog
          title="Cancel dispersal"
          message="Are you sure you want to cancel this dispersal? BNB sent to it afterwards is refunded."
          busy={dispersal.cancelling}
          onConfirm={() => void cancel()}
          onCancel={() => setConfirmCancel(false)}
        />
      )}
    </ContentLayout>
  );
}
