import { claimRequestError, REFERRAL_MESSAGES, type ReferralInfo } from "@bundler/shared";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { formatBnb, toWei } from "../../../lib/bnb.ts";
import { useClaimReferral } from "../api/claim-referral.ts";
import { REFERRAL_TOASTS, referralFailure } from "../utils/referral-messages.ts";

/**
 * Claims everything claimable to an address. "Claim Pending" (disabled) while a claim waits
 * for an admin; disabled too when nothing is claimable (SPEC §4).
 */
export function ClaimForm({ info }: { info: ReferralInfo }) {
  const [address, setAddress] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const claim = useClaimReferral();
  const nothing = (toWei(info.claimable) ?? 0n) <= 0n;
  const disabled = info.hasPendingClaim || nothing;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (claim.isPending || disabled) return;
    const invalid = claimRequestError(info.claimable, address);
    setProblem(invalid);
    if (invalid) return;
    claim.mutate(address.trim(), {
      onSuccess: () => {
        toast.success(REFERRAL_MESSAGES.claimed);
        setAddress("");
      },
      onError: (error) => {
        toast.error(referralFailure(error, REFERRAL_TOASTS.claimFailed));
        if (error instanceof ApiError && error.serverMessage) setProblem(error.serverMessage);
      },
    });
  };

  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
      <p className="text-dim">
        Claimable now: <span className="text-fg tabular-nums">{formatBnb(info.claimable)} BNB</span>
        . A claim asks for all of it; an admin sends it to the address you give.
      </p>
      <Field label="Receiving address" error={problem}>
        <Input
          aria-label="Receiving address"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          placeholder="0x..."
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={disabled} busy={claim.isPending} busyLabel="submitting...">
          {info.hasPendingClaim ? "Claim Pending" : "Claim Rewards"}
        </Button>
        {!info.hasPendingClaim && nothing && (
          <span className="text-xs text-faint">{REFERRAL_MESSAGES.nothingToClaim}</span>
        )}
        {info.hasPendingClaim && (
          <span className="text-xs text-faint">
            {formatBnb(info.pending)} BNB waits for an admin to send it.
          </span>
        )}
      </div>
    </form>
  );
}
