import { type Bumper, bumperWithdrawalText } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { formatBnb } from "../../../lib/bnb.ts";
import { useGenerateBumper } from "../api/generate-bumper.ts";
import { useBnbPrice } from "../api/get-bnb-price.ts";
import { useBumper } from "../api/get-bumper.ts";
import { useBumperCosts } from "../api/get-bumper-costs.ts";
import { useStartBumper, useStopBumper } from "../api/start-stop-bumper.ts";
import { useWithdrawBumper } from "../api/withdraw-bumper.ts";
import { useBumperForm } from "../hooks/use-bumper-form.ts";
import { useRefreshOnProgress } from "../hooks/use-refresh-on-progress.ts";
import {
  BUMPER_SUCCESS,
  type BumperAction,
  bumperFailure,
  completedText,
  isCompleted,
} from "../utils/bumper-messages.ts";
import { BUMPER_REFRESH_MS } from "../utils/timings.ts";
import { Banner, type BannerMessage } from "./banner.tsx";
import { BumperConfigForm } from "./bumper-config-form.tsx";
import { BumperControls } from "./bumper-controls.tsx";
import { BumperList } from "./bumper-list.tsx";
import { BumperStats } from "./bumper-stats.tsx";
import { BumperWalletCard } from "./bumper-wallet-card.tsx";
import { BumperWalletsPanel } from "./bumper-wallets-panel.tsx";
import { BumpsPanel } from "./bumps-panel.tsx";
import { WithdrawForm } from "./withdraw-form.tsx";

/** The bumper tool for a logged-in user: pick or generate a bumper, fund, run, withdraw. */
export function BumperWorkspace() {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The list's copy of the picked bumper stands in while its details load.
  const [picked, setPicked] = useState<Bumper | null>(null);
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const form = useBumperForm();
  const detail = useBumper(selectedId);
  const bnbPrice = useBnbPrice();
  const costs = useBumperCosts();
  const generate = useGenerateBumper();
  const start = useStartBumper();
  const stop = useStopBumper();
  const withdraw = useWithdrawBumper();
  useRefreshOnProgress(detail.data?.bumper ?? null);

  const selected = detail.data?.bumper ?? (picked && picked.id === selectedId ? picked : null);

  const succeed = (text: string) => {
    toast.success(text);
    setBanner({ kind: "success", text });
  };
  const failed = (action: BumperAction) => (error: unknown) => {
    const text = bumperFailure(error, action);
    toast.error(text);
    setBanner({ kind: "error", text });
  };

  const onGenerate = () => {
    const body = form.validate();
    if (!body) return;
    setBanner(null);
    generate.mutate(body, {
      onSuccess: (answer) => {
        setSelectedId(answer.bumper.id);
        succeed(answer.existingBumper ? BUMPER_SUCCESS.existing : BUMPER_SUCCESS.generated);
      },
      onError: failed("generate bumper"),
    });
  };

  const onNew = () => {
    setSelectedId(null);
    setBanner(null);
    form.reset();
  };

  const onWithdraw = async (receiverAddress: string) => {
    if (!selected) return false;
    try {
      const answer = await withdraw.mutateAsync({ bumperId: selected.id, receiverAddress });
      const text = bumperWithdrawalText(
        BUMPER_SUCCESS.withdrew(formatBnb(answer.amount), receiverAddress),
        answer.unsold,
      );
      if (answer.unsold.length === 0) succeed(text);
      else {
        // Said as plainly as a failure: tokens are still in those wallets.
        toast.error(text);
        setBanner({ kind: "error", text });
      }
      return true;
    } catch (error) {
      failed("withdraw funds")(error);
      return false;
    }
  };

  const controlsLoading = detail.isPending || start.isPending || stop.isPending;

  return (
    <div className="flex flex-col gap-6">
      {banner && <Banner message={banner} onDismiss={() => setBanner(null)} />}
      {selected && isCompleted(selected) && (
        <p
          data-testid="completed-banner"
          className="rounded-sm border border-accent/60 bg-accent-soft px-4 py-3 text-sm text-accent"
        >
          {completedText(selected.totalBumps)}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <BumperList
            selectedId={selectedId}
            refetchInterval={detail.data?.bumper.active ? BUMPER_REFRESH_MS : false}
            onSelect={(bumper) => {
              setPicked(bumper);
              setSelectedId(bumper.id);
            }}
          />
          <BumperConfigForm
            form={form}
            locked={selected}
            busy={generate.isPending}
            costs={costs.data}
            onGenerate={onGenerate}
          />
          {selected && (
            <BumperControls
              bumper={selected}
              loading={controlsLoading}
              onStart={() =>
                start.mutate(selected.id, {
                  onSuccess: () => succeed(BUMPER_SUCCESS.started),
                  onError: failed("start bumper"),
                })
              }
              onStop={() =>
                stop.mutate(selected.id, {
                  onSuccess: () => succeed(BUMPER_SUCCESS.stopped),
                  onError: failed("stop bumper"),
                })
              }
            />
          )}
        </div>
        <div className="flex flex-col gap-6">
          {selected ? (
            <>
              <BumperWalletCard
                bumper={selected}
                costs={costs.data}
                onNew={onNew}
                onFunded={() => detail.refetch()}
              />
              <BumperStats bumper={selected} bnbPrice={bnbPrice} />
              <BumpsPanel bumps={detail.data?.bumps ?? []} />
              <BumperWalletsPanel bumper={selected} />
              <WithdrawForm busy={withdraw.isPending} onWithdraw={onWithdraw} />
            </>
          ) : (
            <p className="rounded-sm border border-dashed border-line px-4 py-8 text-center text-sm text-dim">
              Generate a bumper, or pick one from your list, to fund and run it.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
